package report

import "strings"

// emulatedColumn labels the scenarios whose trials ran on brokers or a
// client patched by prodlab's agent (KIP-1269 emulation, results.Record
// Emulated), so that no figure from a patched Kafka reads as stock Kafka's.
// It appears only when some scenario was emulated; the text formats show
// it (CSV columns are numbers, and every JSON record carries the label).
var emulatedColumn = column{head: "EMULATED", md: "emulated", unit: "label", in: inText,
	when: func(scs []scenario) bool {
		for i := range scs {
			if emulated(&scs[i]) != "" {
				return true
			}
		}
		return false
	},
	text: func(s *scenario) string {
		if e := emulated(s); e != "" {
			return e
		}
		return none
	},
}

// emulated is what the scenario's trials say was patched, without the
// word "emulated" the header already says: "KIP-1269: broker retains 20,
// client cap lifted"; "" for stock Kafka.
func emulated(s *scenario) string {
	for _, r := range s.Counted {
		if r.Emulated != "" {
			return strings.TrimPrefix(r.Emulated, "emulated ")
		}
	}
	return ""
}
