package main

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSplitVariance builds rounds whose log ratios carry a known
// between-trial variance B and a known within-window variance (white noise
// per interval), and checks that the split finds both and the optimal
// window the formula gives. A split that put everything in one component
// fails it.
func TestSplitVariance(t *testing.T) {
	for _, tc := range []struct {
		name              string
		between, interval float64 // SD of a trial's offset; SD of one interval's log rate
	}{
		{"mostly between", 0.05, 0.02},
		{"mostly within", 0.005, 0.2},
		{"both", 0.03, 0.1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, 2))
			const rounds, points = 400, 20
			t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			var recs []trial
			for n := range rounds {
				for i, id := range []string{"a", "b"} {
					offset := rng.NormFloat64() * tc.between
					tr := trial{ScenarioID: id, Trial: n, Status: "ok",
						StartedAt: t0.Add(time.Duration(n*6+i*3) * time.Second).Format(time.RFC3339Nano)}
					tr.Timeline = &timeline{}
					for k := range points {
						rate := 1e5 * math.Exp(offset+rng.NormFloat64()*tc.interval)
						tr.Timeline.Points = append(tr.Timeline.Points, point{TMs: float64(k * 100), DurMs: 100, Sent: 1, Acked: int64(rate / 10)})
					}
					recs = append(recs, tr)
				}
			}
			v, err := splitVariance(recs, "a", "b", 2)
			if err != nil {
				t.Fatal(err)
			}
			// ln of a window's mean rate: offset + about interval²/points.
			wantB := 2 * tc.between * tc.between
			wantW := 2 * tc.interval * tc.interval / points
			if rel := v.Between / wantB; (wantB > wantW/4) && (rel < 0.7 || rel > 1.3) {
				t.Errorf("between %.3g, want about %.3g (%s)", v.Between, wantB, v)
			}
			if rel := v.Within / wantW; rel < 0.7 || rel > 1.3 {
				t.Errorf("within %.3g, want about %.3g (%s)", v.Within, wantW, v)
			}
			if math.Abs(v.WindowS-2) > 1e-9 || math.Abs(v.OverheadS-1) > 1e-9 {
				t.Errorf("window %.2fs, overhead %.2fs: want 2 s and 1 s (rounds of 6 s, two trials in a row)", v.WindowS, v.OverheadS)
			}
			if want := math.Sqrt(v.Within * 2 * 1 / v.Between); v.Between > 0 && math.Abs(v.OptimalS-want) > 1e-9 {
				t.Errorf("optimal window %.3f, want %.3f", v.OptimalS, want)
			}
		})
	}
}

// TestComponentsFile reads a results.jsonl end to end, skipping warm-up
// and failed trials.
func TestComponentsFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "results.jsonl")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	enc := json.NewEncoder(f)
	for n := range 5 {
		for _, id := range []string{"a", "b"} {
			pts := []map[string]any{}
			for k := range 6 {
				pts = append(pts, map[string]any{"t_ms": k * 100, "dur_ms": 100, "sent": 1, "acked": 1000 + 10*k + n + len(id)*k})
			}
			_ = enc.Encode(map[string]any{"scenario_id": id, "trial": n, "status": "ok", "started_at": time.Date(2026, 1, 1, 0, 0, n*4, 0, time.UTC).Format(time.RFC3339Nano),
				"timeline": map[string]any{"points": pts}})
		}
		_ = enc.Encode(map[string]any{"scenario_id": "a", "trial": n, "status": "failed", "warmup": true})
	}
	_ = f.Close()
	recs, err := readTrials(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 10 {
		t.Fatalf("%d trials read, want the 10 measured ones that ran", len(recs))
	}
	if _, err := splitVariance(recs, "a", "b", 2); err != nil {
		t.Fatal(err)
	}
}
