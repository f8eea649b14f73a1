package summary

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
)

// probesAround are a capacity search's probes of scenario id whose
// boundary is at rate b: a ceiling at 1.3 b, then n probes either side
// of it, passing below it and failing above.
func probesAround(id string, b float64, n int) []results.Record {
	recs := []results.Record{{ScenarioID: id, Status: results.StatusOK, RecordSize: 1000,
		Throughput: results.Throughput{RecordsPerS: 1.3 * b}, Probe: &results.Probe{Ceiling: true}}}
	for i := range n {
		f := 1 + 0.03*float64(i%4+1)
		if i%2 == 1 {
			f = 1 / f
		}
		r := b * f
		recs = append(recs, results.Record{ScenarioID: id, Trial: i + 1, Status: results.StatusOK, RecordSize: 1000,
			Load: &results.Load{OfferedRecordsPerS: r, Achieved: 1}, Probe: &results.Probe{Pass: r < b}})
	}
	return recs
}

// advicePlan is a plan of candidates named by ID, each with one setting.
func advicePlan(current string, ids ...string) results.Plan {
	p := results.Plan{Level: 0.95, Margin: 0.05, Advise: &results.AdvicePlan{Objective: "sustainable.rate",
		Current: current, Defaults: "candidate=defaults", Constraints: map[string]string{"acks": "all"},
		Space: []results.AdviceAxis{{Key: "linger.ms"}}}}
	for _, id := range ids {
		p.Advise.Candidates = append(p.Advise.Candidates, results.AdviceCandidate{ScenarioID: id,
			Settings: map[string]string{"linger.ms": strings.TrimPrefix(id, "candidate=")}})
	}
	return p
}

// TestAdvice: the pick is the highest bracketed sustainable rate; it is
// recommended only when decided faster than the current settings; the
// answer says to keep the current settings when they are the best or
// within the margin, and "cannot tell yet" when nothing is bracketed;
// runners-up are those not decided slower than the pick.
func TestAdvice(t *testing.T) {
	ids := []string{"candidate=current", "candidate=defaults", "candidate=a", "candidate=b"}
	tests := []struct {
		name   string
		bounds []float64 // current, defaults, a, b; 0: no probes
		n      int
		// pick is the picked ID ("" for none), recommend the verdict, answer
		// a prefix of the answer, runners the runners-up.
		pick      string
		recommend bool
		answer    string
		runners   int
	}{
		{"a clear winner", []float64{5000, 5000, 20000, 10000}, 24, "candidate=a", true, "use the pick: its sustainable rate is +300", 0},
		{"current is the best", []float64{20000, 5000, 10000, 8000}, 24, "candidate=current", false, "keep your current settings: no candidate had a higher", 0},
		{"within the margin", []float64{10000, 5000, 10100, 3000}, 80, "candidate=a", false, "keep your current settings: they are within ±5 %", 1},
		{"two not told apart", []float64{5000, 5000, 20000, 19900}, 24, "candidate=a", true, "use the pick", 1},
		{"too few probes", []float64{5000, 5000, 20000, 10000}, 4, "", false, "cannot tell yet: no candidate's sustainable rate was bracketed", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var recs []results.Record
			for i, id := range ids {
				recs = append(recs, probesAround(id, tt.bounds[i], tt.n)...)
			}
			a := Advice(recs, advicePlan("candidate=current", ids...))
			got := ""
			if a.Pick != nil {
				got = a.Pick.ScenarioID
			}
			if got != tt.pick || a.Recommend != tt.recommend || !strings.HasPrefix(a.Answer, tt.answer) || len(a.RunnersUp) != tt.runners {
				t.Errorf("pick %q recommend %v runners %d answer %q\nwant %q %v %d %q", got, a.Recommend, len(a.RunnersUp), a.Answer, tt.pick, tt.recommend, tt.runners, tt.answer)
			}
			if a.Pick != nil && a.Pick.Properties["acks"] != "all" {
				t.Errorf("the pick's properties %v lost the constraint acks=all", a.Pick.Properties)
			}
		})
	}
}
