//go:build librdkafka

package driver

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// What only the librdkafka worker compiles, checked against the library it
// links (go test -tags librdkafka; make test runs it).

// TestLibrdkafkaBundledRelease: the release prodlab names everywhere
// (clients.LibrdkafkaRelease) is the one linked.
func TestLibrdkafkaBundledRelease(t *testing.T) {
	if got := LibrdkafkaVersion(); got != clients.LibrdkafkaRelease {
		t.Errorf("linked librdkafka %s, clients.LibrdkafkaRelease %s: update one", got, clients.LibrdkafkaRelease)
	}
}

// TestLibrdkafkaPropertiesCurrent: kafkaconf's table of librdkafka's
// properties is the linked library's own, line for line (make
// gen-librdkafka rewrites it).
func TestLibrdkafkaPropertiesCurrent(t *testing.T) {
	props, err := kafkaconf.ParseLibrdkafkaTable(LibrdkafkaPropertiesTable())
	if err != nil {
		t.Fatal(err)
	}
	got, want := kafkaconf.FormatLibrdkafkaTSV(props), kafkaconf.LibrdkafkaTSV()
	if got != want {
		gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("internal/kafkaconf/librdkafka_properties.tsv line %d is %q, the library's %q: run make gen-librdkafka", i+1, wl[i], gl[i])
			}
		}
		t.Fatalf("internal/kafkaconf/librdkafka_properties.tsv has %d lines, the library's table %d: run make gen-librdkafka", len(wl), len(gl))
	}
	if n := len(kafkaconf.LibrdkafkaNames()); n < 100 {
		t.Errorf("%d producer properties in the table, want librdkafka's 100+", n)
	}
}

// TestLibrdkafkaResolve: librdkafka's own word on values and the rules
// between them, and its canonical names in the configuration it resolves.
func TestLibrdkafkaResolve(t *testing.T) {
	for _, tc := range []struct {
		name    string
		conf    map[string]string
		wantErr string            // "" for a configuration librdkafka accepts
		want    map[string]string // resolved values, canonical names
	}{
		// Java's names librdkafka shares resolve to its canonical ones.
		{"aliases", map[string]string{"linger.ms": "7", "acks": "-1", "batch.num.messages": "500"}, "",
			map[string]string{"queue.buffering.max.ms": "7", "request.required.acks": "-1", "batch.num.messages": "500"}},
		// Idempotence caps in-flight requests at 5 and wants acks=all.
		{"idempotence and 6 in flight", map[string]string{"enable.idempotence": "true", "max.in.flight": "6"}, "max.in.flight", nil},
		{"idempotence and acks 1", map[string]string{"enable.idempotence": "true", "acks": "1"}, "acks", nil},
		// A value out of range.
		{"out of range", map[string]string{"batch.num.messages": "0"}, "batch.num.messages", nil},
		// Its defaults when nothing is written: idempotence off.
		{"defaults", map[string]string{}, "", map[string]string{"enable.idempotence": "false", "batch.size": "1000000", "queue.buffering.max.ms": "5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := librdkafkaResolve(tc.conf)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one naming %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range tc.want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}
