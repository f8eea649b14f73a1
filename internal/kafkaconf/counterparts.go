package kafkaconf

import (
	"slices"
	"strings"
)

// counterparts pairs a setting of one client's vocabulary with the nearest
// setting of the other's (the Java producer's names and librdkafka's),
// for the message that refuses a setting the scenario's client does not
// have. Pairs that mean exactly the same go both ways; others say what is
// nearest, not equal.
var counterparts = map[string][]string{
	// Java → librdkafka
	BufferMemory:              {"queue.buffering.max.kbytes"},
	MaxRequestSize:            {"message.max.bytes"},
	MaxBufferedRecords:        {QueueBufferingMaxMessages},
	"partitioner.class":       {"partitioner"},
	"partitioner.ignore.keys": {"partitioner"},
	"max.block.ms":            {"queue.buffering.max.ms"},
	"ssl.truststore.location": {"ssl.ca.location"},
	"ssl.truststore.password": {"ssl.ca.location"}, // librdkafka reads PEM CAs, with no password
	"sasl.jaas.config":        {"sasl.username", "sasl.password"},
	// librdkafka → Java
	"batch.num.messages":                     {BatchSize},
	QueueBufferingMaxMessages:                {BufferMemory, MaxBufferedRecords},
	"queue.buffering.max.kbytes":             {BufferMemory},
	"queue.buffering.max.ms":                 {LingerMs},
	"sticky.partitioning.linger.ms":          {"partitioner.adaptive.partitioning.enable", LingerMs},
	"message.max.bytes":                      {MaxRequestSize},
	"message.timeout.ms":                     {"delivery.timeout.ms"},
	"request.required.acks":                  {Acks},
	"compression.codec":                      {CompressionType},
	"max.in.flight":                          {MaxInFlight},
	"message.send.max.retries":               {"retries"},
	"partitioner":                            {"partitioner.class"},
	"sasl.username":                          {"sasl.jaas.config"},
	"sasl.password":                          {"sasl.jaas.config"},
	"sasl.mechanisms":                        {"sasl.mechanism"},
	"ssl.ca.location":                        {"ssl.truststore.location"},
	"ssl.ca.pem":                             {"ssl.truststore.certificates"},
	"statistics.interval.ms":                 {"metrics.sample.window.ms"},
	"queue.buffering.backpressure.threshold": {MaxInFlight},
}

// Nearest names the setting a client has (has reports whether it does)
// nearest to name, which it does not have: a counterpart of the other
// vocabulary when there is one, else the most similar of names by edit
// distance (within a third of the name's length); "" when nothing is near.
func Nearest(name string, has func(string) bool, names []string) string {
	for _, c := range counterparts[name] {
		if has(c) {
			return c
		}
	}
	best, bestD := "", len(name)/3+1
	for _, n := range names {
		if d := EditDistance(name, n); d < bestD || (d == bestD && best != "" && n < best) {
			best, bestD = n, d
		}
	}
	return best
}

// RefuseFor is the message that refuses a setting client does not have,
// naming the nearest one it has ("" for none).
func RefuseFor(name, client, nearest, why string) string {
	var b strings.Builder
	b.WriteString("producer property " + name + " is not supported by client " + client)
	if why != "" {
		b.WriteString(" (" + why + ")")
	}
	if nearest != "" {
		b.WriteString("; its nearest setting is " + nearest)
	}
	return b.String()
}

// EditDistance is the optimal-string-alignment distance between a and b:
// insertions, deletions, substitutions and transpositions of adjacent
// characters each cost one.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// d[i][j] = distance between ra[:i] and rb[:j].
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// JavaHas reports whether the Java producer (of Kafka 4.x) defines name, or
// it is one of prodlab's transaction settings, which the Java worker
// honours.
func JavaHas(name string) bool {
	_, ok := producerConfigs[name]
	return ok || slices.Contains(TransactionSettings, name)
}

// JavaNames lists the settings JavaHas accepts, sorted.
func JavaNames() []string {
	var out []string
	for _, n := range ProducerNames() {
		if JavaHas(n) {
			out = append(out, n)
		}
	}
	return out
}
