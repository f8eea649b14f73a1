package report

import (
	"bytes"
	"testing"

	"github.com/prodlab/prodlab/internal/results"

	"github.com/prodlab/prodlab/internal/golden"
)

// rec returns a successful trial of the batching matrix with figures
// scaled by k, so trials of one scenario differ predictably.
func rec(linger float64, codec string, trial int, k float64) results.Record {
	return results.Record{
		Schema:           results.Schema,
		Run:              "20250102-030405-batching",
		Experiment:       "batching",
		Scenario:         map[string]any{"linger.ms": linger, "compression.type": codec},
		ScenarioKeys:     []string{"linger.ms", "compression.type"},
		ScenarioID:       "linger.ms=" + formatValue(linger) + ",compression.type=" + codec,
		Trial:            trial,
		Status:           results.StatusOK,
		Client:           "franz-go v1.22.2",
		Kafka:            "4.3.0",
		RecordSize:       1024,
		Records:          results.Records{Sent: 100000, Acked: 100000},
		ElapsedS:         1.9106 * k,
		Throughput:       results.Throughput{RecordsPerS: 52339.6 / k, MBPerS: 51.11 / k},
		LatencyMs:        results.Latency{P50: 10.234 * k, P95: 40.5 * k, P99: 60.25 * k, P999: 80.999 * k, Max: 345 * k, Mean: 12.3449 * k},
		DiskBytes:        int64(24536678 * k),
		CompressionRatio: 4.347 * k,
	}
}

// plain sets an uncompressed scenario's ratio to 1.
func plain(r results.Record) results.Record { r.CompressionRatio = 1; return r }

// failed returns a trial that failed with msg.
func failed(linger float64, codec string, trial int, msg string) results.Record {
	r := rec(linger, codec, trial, 1)
	r.Status, r.Error = results.StatusFailed, msg
	r.Records = results.Records{Sent: 100000, Acked: 0, Failed: 100000}
	r.Throughput, r.LatencyMs, r.DiskBytes, r.CompressionRatio = results.Throughput{}, results.Latency{}, 0, 0
	return r
}

// warm marks r as a warm-up trial.
func warm(r results.Record) results.Record { r.Warmup = true; return r }

func TestTable(t *testing.T) {
	longErr := "INVALID_RECORD: the broker rejected the batch because the record is larger than max.message.bytes (1048588)\n" +
		"hint: raise the topic's max.message.bytes or lower batch.size\ncaused by: kerr.MessageTooLarge"
	tests := []struct {
		name   string
		golden string
		recs   []results.Record
	}{
		// Three scenarios, one trial each; uncompressed has ratio 1 and a
		// long run shows minutes.
		{"ok rows", "table-ok.golden", []results.Record{
			plain(rec(0, "none", 0, 1)),
			func() results.Record { r := rec(5, "lz4", 0, 0.5); r.ElapsedS = 125.4; return r }(),
			rec(50, "zstd", 0, 2),
		}},
		// The middle scenario failed: counts, dashes, short error, footnote
		// with every line of the full error.
		{"failed row", "table-failed.golden", []results.Record{
			rec(0, "none", 0, 1),
			failed(5, "zstd", 0, longErr),
			rec(50, "zstd", 0, 2),
		}},
		// Interleaved trials of two scenarios average per scenario, in the
		// order scenarios first appear; one scenario lost one of its trials
		// to an error, and another lost two to the same error.
		{"multiple trials", "table-trials.golden", []results.Record{
			rec(5, "lz4", 0, 1), rec(0, "none", 0, 1), failed(9, "gzip", 0, "timeout"),
			rec(5, "lz4", 1, 3), rec(0, "none", 1, 2), failed(9, "gzip", 1, "timeout"),
			failed(5, "lz4", 2, "broker 2 went away"),
		}},
		// Warm-up trials are left out entirely, even a failed one and even
		// when a scenario has only warm-ups.
		{"warm-up skipped", "table-warmup.golden", []results.Record{
			warm(rec(0, "none", 0, 10)), warm(failed(0, "none", 1, "cold start")),
			rec(0, "none", 2, 1),
			warm(rec(5, "none", 0, 1)),
		}},
		// Records without matrix values show the scenario as "default".
		{"no matrix", "table-default.golden", []results.Record{
			func() results.Record {
				r := rec(0, "none", 0, 1)
				r.Scenario, r.ScenarioKeys, r.ScenarioID = nil, nil, ""
				return r
			}(),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b bytes.Buffer
			if err := Table(&b, tt.recs); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, tt.golden, b.Bytes())
		})
	}
}

func TestPerfTestLine(t *testing.T) {
	var b bytes.Buffer
	// A typical run.
	PerfTestLine(&b, rec(0, "none", 0, 1))
	// Sub-millisecond latencies truncate to 0 ms as in perf-test.
	fast := rec(0, "none", 0, 1)
	fast.LatencyMs = results.Latency{P50: 0.412, P95: 0.9, P99: 1.2, P999: 3.999, Max: 7.5, Mean: 0.5}
	PerfTestLine(&b, fast)
	// A failed trial: nothing acknowledged.
	PerfTestLine(&b, failed(0, "none", 0, "boom"))
	golden.Check(t, "perftest.golden", b.Bytes())
}

func TestFormatters(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		// Commas every three digits, rounding to the nearest integer.
		{"thousands", thousands(1234567.5), "1,234,568"},
		// Small numbers have no separator.
		{"thousands small", thousands(999), "999"},
		// Negative numbers keep their sign in front.
		{"thousands negative", thousands(-1234), "-1,234"},
		// Bytes below 1 KiB are whole bytes.
		{"bytes", iecBytes(512), "512 B"},
		// Binary units with one decimal.
		{"mebibytes", iecBytes(23.4 * 1024 * 1024), "23.4 MiB"},
		{"gibibytes", iecBytes(3 << 30), "3.0 GiB"},
		// Zero is "not measured".
		{"no bytes", iecBytes(0), "-"},
		{"no ratio", ratio(0), "-"},
		// Under a minute: seconds with two decimals; above: a duration.
		{"seconds", seconds(1.906), "1.91s"},
		{"minutes", seconds(125.4), "2m5s"},
		// Integral matrix values print as written.
		{"int value", formatValue(float64(5)), "5"},
		{"float value", formatValue(0.5), "0.5"},
		{"bool value", formatValue(true), "true"},
		// Only the first line of an error, cut with an ellipsis.
		{"short error", shortError("  first line that is rather long and goes on and on beyond sixty runes\nsecond"), "first line that is rather long and goes on and on beyond si…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}
