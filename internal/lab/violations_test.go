package lab

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

func TestCheckDelivery(t *testing.T) {
	cases := []struct {
		name   string
		status string
		audit  *results.Audit
		expect expfile.Expect
		want   string // status after
		msg    []string
	}{
		{"clean", results.StatusOK, &results.Audit{Acked: 10}, expfile.Expect{}, results.StatusOK, nil},
		{"no audit", results.StatusOK, nil, expfile.Expect{}, results.StatusOK, nil},
		{"foreign only", results.StatusOK, &results.Audit{Acked: 10, Foreign: 3}, expfile.Expect{}, results.StatusOK, nil},
		{"lost", results.StatusOK, &results.Audit{Acked: 10, Lost: 2760}, expfile.Expect{},
			results.StatusViolated, []string{"2,760 lost acknowledged", "expect.lost: true"}},
		{"lost expected", results.StatusOK, &results.Audit{Lost: 5}, expfile.Expect{Lost: true}, results.StatusOK, nil},
		{"dup expected, reordered not", results.StatusOK, &results.Audit{Duplicates: 4, Reordered: 1}, expfile.Expect{Duplicates: true},
			results.StatusViolated, []string{"1 reordered", "expect.reordered: true"}},
		{"phantom", results.StatusOK, &results.Audit{Phantom: 1}, expfile.Expect{Lost: true, Duplicates: true, Reordered: true},
			results.StatusViolated, []string{"1 phantom", "expect.phantom: true"}},
		{"failed stays failed", results.StatusFailed, &results.Audit{Lost: 1}, expfile.Expect{}, results.StatusFailed, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := results.Record{Status: c.status, Audit: c.audit}
			checkDelivery(&rec, c.expect)
			if rec.Status != c.want {
				t.Fatalf("status %s, want %s (error %q)", rec.Status, c.want, rec.Error)
			}
			for _, m := range c.msg {
				if !strings.Contains(rec.Error, m) {
					t.Errorf("error %q lacks %q", rec.Error, m)
				}
			}
			if c.want == results.StatusViolated && strings.Contains(rec.Error, "duplicated") && c.expect.Duplicates {
				t.Errorf("error %q names an expected finding", rec.Error)
			}
		})
	}
}

// TestDuplicatesViolate cuts connections after the broker wrote a request
// and before the client saw the reply: without idempotence the retry writes
// the records twice. Undeclared, that is a violated trial and the run
// returns ErrViolated (exit 3); declared with expect.duplicates the trial is
// ok and the counts stay in the record.
func TestDuplicatesViolate(t *testing.T) {
	testtier.Shared(t)
	recs, err := runYAML(t, `
name: dups
workload: {records: 4000, record.size: 100, payload: random}
client: java
producer: {acks: all, enable.idempotence: false, max.in.flight.requests.per.connection: 1, linger.ms: 5, batch.size: 4096}
faults:
  - {type: connection.cut, every: 5}
matrix:
  expect.duplicates: [false, true]
`, false)
	if !errors.Is(err, ErrViolated) {
		t.Errorf("run error %v, want ErrViolated", err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d records, want 2", len(recs))
	}
	for _, r := range recs {
		if r.Audit == nil || r.Audit.Duplicates == 0 {
			t.Fatalf("%s: audit %+v: the cuts duplicated nothing, so this test proves nothing", r.ScenarioID, r.Audit)
		}
		declared := fmt.Sprint(r.Scenario["expect.duplicates"]) == "true"
		want := results.StatusViolated
		if declared {
			want = results.StatusOK
		}
		if r.Status != want {
			t.Errorf("%s: status %s (%s), want %s", r.ScenarioID, r.Status, r.Error, want)
		}
		if !declared && !strings.Contains(r.Error, "duplicated") {
			t.Errorf("%s: error %q does not name the duplicates", r.ScenarioID, r.Error)
		}
	}
}
