package driver

import (
	"maps"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/secret"
)

// TestRdStatsAdd: produce requests and record bytes are counters (the
// last report's, summed over brokers); batch counts and sizes are windows
// that restart at each report (summed over topics and reports); a report
// that does not parse is skipped.
func TestRdStatsAdd(t *testing.T) {
	// Shaped as librdkafka's STATISTICS.md, with fields rdStats ignores.
	reports := []string{
		`{"name":"rdkafka#producer-1","type":"producer","txmsg_bytes":5000,"txmsgs":50,
		  "brokers":{
		    "localhost:9092/1":{"name":"localhost:9092/1","req":{"Produce":3,"Metadata":7,"ApiVersion":1}},
		    "localhost:9093/2":{"name":"localhost:9093/2","req":{"Produce":2}},
		    "GroupCoordinator":{"req":{}}},
		  "topics":{"t":{"topic":"t","batchsize":{"min":900,"max":1100,"avg":1000,"sum":4000,"cnt":4},"batchcnt":{"sum":50,"cnt":4}}}}`,
		// Not JSON: skipped, changing nothing.
		`{"brokers":`,
		`{"txmsg_bytes":9000,
		  "brokers":{
		    "localhost:9092/1":{"req":{"Produce":5,"Metadata":9}},
		    "localhost:9093/2":{"req":{"Produce":4}}},
		  "topics":{
		    "t":{"batchsize":{"sum":1500,"cnt":2}},
		    "u":{"batchsize":{"sum":100,"cnt":1}}}}`,
	}
	for _, tc := range []struct {
		label   string
		n       int // reports read, from the start
		want    rdCounters
		reports int
	}{
		// No report yet: all zero.
		{"none", 0, rdCounters{}, 0},
		// One report: Produce summed over brokers (Metadata not), one topic's window.
		{"one", 1, rdCounters{requests: 5, batches: 4, compressed: 4000, uncompressed: 5000}, 1},
		// A malformed report is not counted.
		{"malformed", 2, rdCounters{requests: 5, batches: 4, compressed: 4000, uncompressed: 5000}, 1},
		// The counters are the last report's; the windows add up, over topics too.
		{"two", 3, rdCounters{requests: 9, batches: 4 + 2 + 1, compressed: 4000 + 1500 + 100, uncompressed: 9000}, 2},
	} {
		var s rdStats
		for _, r := range reports[:tc.n] {
			s.add(r)
		}
		if got := s.final(); got != tc.want {
			t.Errorf("%s: final() = %+v, want %+v", tc.label, got, tc.want)
		}
		if s.reports != tc.reports {
			t.Errorf("%s: %d reports, want %d", tc.label, s.reports, tc.reports)
		}
	}
}

// TestRdStatsAwait: await returns at the next report, or after its time
// without one.
func TestRdStatsAwait(t *testing.T) {
	var s rdStats
	start := time.Now()
	s.await(20 * time.Millisecond)
	if d := time.Since(start); d < 20*time.Millisecond {
		t.Errorf("await without a report returned after %v, want at least 20ms", d)
	}

	done := make(chan struct{})
	go func() {
		defer close(done)
		s.await(time.Minute)
	}()
	// Keep reporting until the waiter has seen one: a report that comes
	// before it waits does not wake it.
	deadline := time.After(time.Minute) // a hang guard: it takes milliseconds
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for waiting := true; waiting; {
		select {
		case <-done:
			waiting = false
		case <-tick.C:
			s.add(`{"txmsg_bytes":1}`)
		case <-deadline:
			t.Fatal("await did not return after reports")
		}
	}
	if got := s.final().uncompressed; got != 1 {
		t.Errorf("uncompressed = %d after the reports, want 1", got)
	}
}

// TestRdUncompressed: without compression the batches' own bytes; with
// it, the records' key and value bytes plus headers and the v2 format's
// framing.
func TestRdUncompressed(t *testing.T) {
	c := rdCounters{requests: 3, batches: 10, compressed: 50_000, uncompressed: 40_000}
	for _, tc := range []struct {
		codec                string
		headerBytes, records int64
		want                 int64
	}{
		// No codec known: the batches as written.
		{"", 700, 1000, 50_000},
		// none: the same.
		{"none", 700, 1000, 50_000},
		// Compressed: 40000 key/value bytes + 700 header bytes + 8 per record + 61 per batch.
		{"zstd", 700, 1000, 40_000 + 700 + 8*1000 + 61*10},
		{"lz4", 0, 0, 40_000 + 61*10},
	} {
		if got := rdUncompressed(c, tc.codec, tc.headerBytes, tc.records); got != tc.want {
			t.Errorf("rdUncompressed(%+v, %q, %d, %d) = %d, want %d", c, tc.codec, tc.headerBytes, tc.records, got, tc.want)
		}
	}
}

// TestLibrdkafkaEffective: the resolved configuration keeps the
// properties a producer has, drops the consumer's and the callbacks, and
// hides secrets.
func TestLibrdkafkaEffective(t *testing.T) {
	resolved := map[string]string{
		"batch.num.messages":             "10000",
		"compression.codec":              "zstd",
		"request.required.acks":          "-1",
		"client.id":                      "rdkafka",
		"sasl.username":                  "prodlab",
		"sasl.password":                  "s3cret",
		"ssl.key.password":               "k3y",
		"ssl.keystore.password":          "st0re",
		"sasl.oauthbearer.client.secret": "oidc",
		"ssl.key.pem":                    "-----BEGIN PRIVATE KEY-----", // a secret without a telling name
		"sasl.oauthbearer.config":        "principal=admin",
		"ssl.certificate.pem":            "-----BEGIN CERTIFICATE-----", // public
		"group.id":                       "",                            // consumer's
		"enable.auto.commit":             "true",                        // consumer's
		"fetch.wait.max.ms":              "500",                         // consumer's
		"dr_msg_cb":                      "0x1234",                      // a callback
		"no.such.setting":                "1",
	}
	got := librdkafkaEffective(resolved)
	want := map[string]string{
		"batch.num.messages":             "10000",
		"compression.codec":              "zstd",
		"request.required.acks":          "-1",
		"client.id":                      "rdkafka",
		"sasl.username":                  "prodlab",
		"sasl.password":                  secret.Hidden,
		"ssl.key.password":               secret.Hidden,
		"ssl.keystore.password":          secret.Hidden,
		"sasl.oauthbearer.client.secret": secret.Hidden,
		"ssl.key.pem":                    secret.Hidden,
		"sasl.oauthbearer.config":        secret.Hidden,
		"ssl.certificate.pem":            "-----BEGIN CERTIFICATE-----",
	}
	if !maps.Equal(got, want) {
		t.Errorf("librdkafkaEffective:\n got %v\nwant %v", got, want)
	}
	if resolved["sasl.password"] != "s3cret" {
		t.Error("librdkafkaEffective changed its argument")
	}
}
