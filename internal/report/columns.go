package report

import (
	"strconv"

	"github.com/prodlab/prodlab/internal/stats"
)

// optionalColumns are table columns shown only when some scenario has the
// data: the pipe model and in-flight figures when netem proxies ran (means
// ± error like the other figures), and the delivery audit when it ran
// (totals over the counted trials: one lost record in any trial matters).
type optionalColumns struct {
	network bool
	model   bool
	audit   bool
}

func extraColumns(scs []stats.ScenarioStats) optionalColumns {
	var c optionalColumns
	for i := range scs {
		s := &scs[i]
		if _, ok := s.Network["max_in_flight"]; ok {
			c.network = true
		}
		if _, ok := s.Network["model_mb_per_s"]; ok {
			c.model = true
		}
		if s.Audit != nil {
			c.audit = true
		}
	}
	return c
}

func (c optionalColumns) header() []string {
	var h []string
	if c.network {
		h = append(h, "IN-FLIGHT", "RTT ms")
	}
	if c.model {
		h = append(h, "MODEL MB/S")
	}
	if c.audit {
		h = append(h, "LOST", "DUP", "REORD", "PHANTOM")
	}
	return h
}

func (c optionalColumns) cells(s *stats.ScenarioStats) []string {
	var out []string
	f1 := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	cell := func(key string, f func(float64) string) string {
		if sum, ok := s.Network[key]; ok && s.Trials > 0 {
			return withErr(sum, f)
		}
		return none
	}
	if c.network {
		out = append(out, cell("max_in_flight", func(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }), cell("rtt_p50_ms", f1))
	}
	if c.model {
		out = append(out, cell("model_mb_per_s", f1))
	}
	if c.audit {
		if a := s.Audit; a != nil {
			out = append(out, thousands(float64(a.Lost)), thousands(float64(a.Duplicates)), thousands(float64(a.Reordered)), thousands(float64(a.Phantom)))
		} else {
			out = append(out, none, none, none, none)
		}
	}
	return out
}
