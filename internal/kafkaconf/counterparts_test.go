package kafkaconf

import (
	"slices"
	"testing"
)

// TestEditDistance: optimal string alignment distance.
func TestEditDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		// Equal strings, empty or not.
		{"", "", 0},
		{"linger.ms", "linger.ms", 0},
		// Against the empty string: the other's length.
		{"abc", "", 3},
		{"", "abcd", 4},
		// One insertion, deletion, substitution.
		{"linger.ms", "linger.mss", 1},
		{"linger.ms", "linger.m", 1},
		{"acks", "acts", 1},
		// The classic: two substitutions and an insertion.
		{"kitten", "sitting", 3},
		// Adjacent transposition costs one.
		{"ab", "ba", 1},
		{"lingre.ms", "linger.ms", 1},
		// OSA, not full Damerau-Levenshtein: a transposed pair is not
		// edited again (Damerau-Levenshtein says 2).
		{"ca", "abc", 3},
		// Runes, not bytes.
		{"héllo", "hello", 1},
		{"日本", "本日", 1},
	} {
		if got := EditDistance(tc.a, tc.b); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := EditDistance(tc.b, tc.a); got != tc.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

// TestNearest: a counterpart the client has wins; else the most similar
// name within a third of the name's length, ties to the first in order.
func TestNearest(t *testing.T) {
	librdkafkaHas := func(n string) bool { _, ok := Librdkafka(n); return ok }
	only := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	for _, tc := range []struct {
		label string
		name  string
		has   func(string) bool
		names []string
		want  string
	}{
		// Java → librdkafka counterparts.
		{"buffer.memory", BufferMemory, librdkafkaHas, LibrdkafkaNames(), "queue.buffering.max.kbytes"},
		{"max.request.size", MaxRequestSize, librdkafkaHas, LibrdkafkaNames(), "message.max.bytes"},
		{"sasl.jaas.config: the first of two", "sasl.jaas.config", librdkafkaHas, LibrdkafkaNames(), "sasl.username"},
		// librdkafka → Java counterparts.
		{"batch.num.messages", "batch.num.messages", JavaHas, JavaNames(), BatchSize},
		{"queue.buffering.max.kbytes", "queue.buffering.max.kbytes", JavaHas, JavaNames(), BufferMemory},
		{"message.timeout.ms", "message.timeout.ms", JavaHas, JavaNames(), "delivery.timeout.ms"},
		// The first counterpart the client lacks is passed over.
		{"second counterpart", "queue.buffering.max.messages", only(MaxBufferedRecords), nil, MaxBufferedRecords},
		// A counterpart the client lacks altogether: edit distance decides.
		{"counterpart missing", "batch.num.messages", only(), []string{"batch.num.message"}, "batch.num.message"},
		// No counterpart: a typo finds its setting.
		{"typo", "lingr.ms", JavaHas, JavaNames(), LingerMs},
		{"transposition", "acsk", JavaHas, JavaNames(), Acks},
		// Within a third of the length: 9 characters allow 3 edits ...
		{"3 edits of 9", "linger.ms", only(), []string{"lxnxer.mx"}, "lxnxer.mx"},
		// ... not 4.
		{"4 edits of 9", "linger.ms", only(), []string{"lxnxer.xx"}, ""},
		// Nothing near.
		{"nothing near", "foo.bar", JavaHas, JavaNames(), ""},
		{"no names", "linger.ms", only(), nil, ""},
		// Equally near: the first in sort order, whatever the list's order.
		{"tie", "abcd", only(), []string{"abcf", "abce"}, "abce"},
		// A nearer one later in the list wins.
		{"nearer later", "abcdef", only(), []string{"abcxyf", "abcdxf"}, "abcdxf"},
	} {
		if got := Nearest(tc.name, tc.has, tc.names); got != tc.want {
			t.Errorf("%s: Nearest(%q) = %q, want %q", tc.label, tc.name, got, tc.want)
		}
	}
}

// TestCounterpartsKnown: every setting of the counterparts table is one
// some client has, and each has a counterpart in the other vocabulary.
func TestCounterpartsKnown(t *testing.T) {
	librdkafkaHas := func(n string) bool { _, ok := Librdkafka(n); return ok }
	for k, cs := range counterparts {
		if _, ok := ProducerType(k); !ok {
			t.Errorf("counterparts[%q]: no client has %s", k, k)
		}
		for _, c := range cs {
			if _, ok := ProducerType(c); !ok {
				t.Errorf("counterparts[%q]: no client has %s", k, c)
			}
		}
		// A librdkafka-only name points at least at one Java name, and a
		// name librdkafka lacks at least at one of librdkafka's.
		switch {
		case librdkafkaHas(k) && !JavaHas(k):
			if !slices.ContainsFunc(cs, JavaHas) {
				t.Errorf("counterparts[%q] = %v: none is the Java producer's", k, cs)
			}
		case !librdkafkaHas(k):
			if !slices.ContainsFunc(cs, librdkafkaHas) {
				t.Errorf("counterparts[%q] = %v: none is librdkafka's", k, cs)
			}
		}
	}
}

// TestRefuseFor: the refusal names the setting and the client, then why
// and the nearest setting when there are.
func TestRefuseFor(t *testing.T) {
	for _, tc := range []struct {
		name, client, nearest, why, want string
	}{
		// Neither why nor nearest.
		{"foo", "librdkafka", "", "", "producer property foo is not supported by client librdkafka"},
		// Nearest only.
		{"buffer.memory", "librdkafka", "queue.buffering.max.kbytes", "",
			"producer property buffer.memory is not supported by client librdkafka; its nearest setting is queue.buffering.max.kbytes"},
		// Why only.
		{"transaction.duration.ms", "librdkafka", "", "not yet",
			"producer property transaction.duration.ms is not supported by client librdkafka (not yet)"},
		// Both.
		{"batch.num.messages", "java@4.1.0", "batch.size", "it is librdkafka's",
			"producer property batch.num.messages is not supported by client java@4.1.0 (it is librdkafka's); its nearest setting is batch.size"},
	} {
		if got := RefuseFor(tc.name, tc.client, tc.nearest, tc.why); got != tc.want {
			t.Errorf("RefuseFor(%q, %q, %q, %q) =\n %q\nwant %q", tc.name, tc.client, tc.nearest, tc.why, got, tc.want)
		}
	}
}

// TestJavaHas: the Java producer's settings and prodlab's transaction
// settings, which its worker honours; not prodlab's franz-go extension nor
// librdkafka's settings.
func TestJavaHas(t *testing.T) {
	for name, want := range map[string]bool{
		Acks:                  true,
		BufferMemory:          true,
		"sasl.jaas.config":    true,
		TransactionDurationMs: true,
		TransactionRecords:    true,
		TransactionAbortRatio: true,
		MaxBufferedRecords:    false,
		"batch.num.messages":  false,
		"sasl.username":       false,
		"no.such.setting":     false,
	} {
		if got := JavaHas(name); got != want {
			t.Errorf("JavaHas(%q) = %v, want %v", name, got, want)
		}
	}

	names := JavaNames()
	if !slices.IsSorted(names) {
		t.Error("JavaNames is not sorted")
	}
	if len(names) != len(producerConfigs)+len(TransactionSettings) {
		t.Errorf("JavaNames has %d names, want the Java producer's %d and the %d transaction settings", len(names), len(producerConfigs), len(TransactionSettings))
	}
	for _, n := range names {
		if !JavaHas(n) {
			t.Errorf("JavaNames lists %s, which JavaHas refuses", n)
		}
	}
	for _, n := range []string{MaxBufferedRecords, "batch.num.messages"} {
		if slices.Contains(names, n) {
			t.Errorf("JavaNames lists %s", n)
		}
	}
}
