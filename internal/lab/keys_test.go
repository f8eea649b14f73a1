package lab

import (
	"testing"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestKeyedAudited runs keyless and Zipf-keyed trials with both clients on
// the shared broker, every record read back: the audit stays clean with
// keys, and each record says how its records spread over the partitions
// (a Zipf space makes a hot partition).
func TestKeyedAudited(t *testing.T) {
	testtier.Shared(t)
	recs, err := runYAML(t, `
name: keyed
topic: {partitions: 6}
workload: {records: 10000, record.size: 200, payload: json}
producer: {acks: all, linger.ms: 5}
audit: true
matrix:
  client: [java, franz-go]
  keys:
    - {label: none, keys.distribution: none}
    - {label: zipf 1.2, keys.distribution: zipf, keys.count: 1000, keys.zipf.exponent: 1.2}
`, true)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, r := range recs {
		if r.Warmup {
			continue
		}
		seen++
		p := r.Partitions
		t.Logf("%s: %s, %.1f records/batch, partitions %+v, audit %+v", r.ScenarioID, r.Status, r.RecordsPerBatch, p, r.Audit)
		if r.Status != results.StatusOK || r.Records.Acked != 10000 {
			t.Errorf("%s: status %s %s, %+v", r.ScenarioID, r.Status, r.Error, r.Records)
		}
		checkAudit(t, r, 10000)
		if p == nil || p.Count != 6 || p.Max < p.Min || p.Skew < 1 {
			t.Fatalf("%s: partitions %+v, want 6 partitions with figures", r.ScenarioID, p)
		}
		if r.Scenario["keys"] == "zipf 1.2" && p.Skew < 1.5 {
			t.Errorf("%s: skew %.2f, want a hot partition (≥ 1.5)", r.ScenarioID, p.Skew)
		}
	}
	if seen != 4 {
		t.Errorf("%d measured trials, want 4", seen)
	}
}
