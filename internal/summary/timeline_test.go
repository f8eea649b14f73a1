package summary

import (
	"testing"

	"github.com/prodlab/prodlab/internal/histtest"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// point returns a timeline point of 1 s at t seconds with acked records and
// a histogram of the given µs values (none: no histogram).
func point(t *testing.T, sec int, acked int64, us ...int64) results.TimelinePoint {
	t.Helper()
	p := results.TimelinePoint{TMs: float64(sec * 1000), DurMs: 1000, Sent: acked + 1, Acked: acked, AckedBytes: acked * 100,
		Failed: 1, Retries: 2, InFlight: int64(sec)}
	if len(us) > 0 {
		h := histtest.New(t, us...)
		enc, err := stats.EncodeHistogram(h)
		if err != nil {
			t.Fatal(err)
		}
		l := LatencyMs(h)
		p.Histogram, p.P50Ms, p.P99Ms, p.MaxMs = enc, l.P50, l.P99, l.Max
	}
	return p
}

func TestCoarsen(t *testing.T) {
	lo, mid, hi := histtest.UpTo(1000), make([]int64, 500), make([]int64, 10)
	for i := range mid {
		mid[i] = int64(2000 + i)
	}
	for i := range hi {
		hi[i] = int64(50000 + 1000*i)
	}
	var all []int64
	all = append(append(append(all, lo...), mid...), hi...)
	exact := LatencyMs(histtest.New(t, all...))

	withHists := []results.TimelinePoint{point(t, 0, 1000, lo...), point(t, 1, 500, mid...), point(t, 2, 10, hi...)}
	noHists := []results.TimelinePoint{point(t, 0, 100), point(t, 1, 300), point(t, 2, 0)}
	noHists[0].P50Ms, noHists[0].P99Ms, noHists[0].MaxMs = 1, 5, 9
	noHists[1].P50Ms, noHists[1].P99Ms, noHists[1].MaxMs = 3, 4, 20
	noHists[2].P50Ms = 100 // no acks: no weight
	unknownRetries := []results.TimelinePoint{point(t, 0, 1), point(t, 1, 1)}
	unknownRetries[1].Retries = -1
	warm := []results.TimelinePoint{point(t, 0, 1), point(t, 1, 1)}
	warm[0].Warmup = true

	tests := []struct {
		name string
		pts  []results.TimelinePoint
		k    int
		want []results.TimelinePoint // Histogram not compared; see hist
		hist []bool                  // whether each merged point keeps a histogram
	}{
		// Three points with histograms into one: percentiles exactly those
		// of one histogram of every value.
		{"histograms", withHists, 3, []results.TimelinePoint{{TMs: 0, DurMs: 3000, Sent: 1513, Acked: 1510, AckedBytes: 151000,
			Failed: 3, Retries: 6, InFlight: 2, P50Ms: exact.P50, P99Ms: exact.P99, MaxMs: exact.Max}}, []bool{true}},
		// k = 2 over 3 points: a full pair and a short last point.
		{"partial group", withHists, 2, []results.TimelinePoint{
			{TMs: 0, DurMs: 2000, Sent: 1502, Acked: 1500, AckedBytes: 150000, Failed: 2, Retries: 4, InFlight: 1,
				P50Ms: LatencyMs(histtest.New(t, append(append([]int64{}, lo...), mid...)...)).P50,
				P99Ms: LatencyMs(histtest.New(t, append(append([]int64{}, lo...), mid...)...)).P99, MaxMs: 2.499},
			{TMs: 2000, DurMs: 1000, Sent: 11, Acked: 10, AckedBytes: 1000, Failed: 1, Retries: 2, InFlight: 2,
				P50Ms: withHists[2].P50Ms, P99Ms: withHists[2].P99Ms, MaxMs: withHists[2].MaxMs}}, []bool{true, true}},
		// No histograms: p50 is the acked-weighted mean (1·100 + 3·300)/400,
		// p99 and max the maxima.
		{"no histograms", noHists, 3, []results.TimelinePoint{{TMs: 0, DurMs: 3000, Sent: 403, Acked: 400, AckedBytes: 40000,
			Failed: 3, Retries: 6, InFlight: 2, P50Ms: 2.5, P99Ms: 5, MaxMs: 20}}, []bool{false}},
		// One point without a histogram: no merged histogram either.
		{"mixed", []results.TimelinePoint{withHists[0], noHists[1]}, 2, []results.TimelinePoint{{TMs: 0, DurMs: 2000,
			Sent: 1302, Acked: 1300, AckedBytes: 130000, Failed: 2, Retries: 4, InFlight: 1,
			P50Ms: (withHists[0].P50Ms*1000 + 3*300) / 1300, P99Ms: 4, MaxMs: 20}}, []bool{false}},
		// Retries unknown in one point: unknown in the merge.
		{"unknown retries", unknownRetries, 2, []results.TimelinePoint{{DurMs: 2000, Sent: 4, Acked: 2, AckedBytes: 200,
			Failed: 2, Retries: -1, InFlight: 1}}, []bool{false}},
		// A warm-up point makes the merge a warm-up one.
		{"warm-up", warm, 2, []results.TimelinePoint{{DurMs: 2000, Sent: 4, Acked: 2, AckedBytes: 200,
			Failed: 2, Retries: 4, InFlight: 1, Warmup: true}}, []bool{false}},
		// k = 1: unchanged.
		{"k=1", noHists[:1], 1, []results.TimelinePoint{noHists[0]}, []bool{false}},
	}
	for _, tt := range tests {
		got, err := Coarsen(tt.pts, tt.k)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if len(got) != len(tt.want) {
			t.Fatalf("%s: %d points, want %d", tt.name, len(got), len(tt.want))
		}
		for i := range got {
			g := got[i]
			if (g.Histogram != "") != tt.hist[i] {
				t.Errorf("%s[%d]: histogram %v, want %v", tt.name, i, g.Histogram != "", tt.hist[i])
			}
			if g.Histogram != "" {
				h, err := stats.DecodeHistogram(g.Histogram)
				if err != nil || LatencyMs(h).P50 != g.P50Ms {
					t.Errorf("%s[%d]: merged histogram does not decode to the point's p50 (%v)", tt.name, i, err)
				}
			}
			g.Histogram = ""
			if !histtest.Near(g.P50Ms, tt.want[i].P50Ms, 1e-12) {
				t.Errorf("%s[%d]: p50 %v, want %v", tt.name, i, g.P50Ms, tt.want[i].P50Ms)
			}
			g.P50Ms = tt.want[i].P50Ms
			if g != tt.want[i] {
				t.Errorf("%s[%d]:\n got %+v\nwant %+v", tt.name, i, g, tt.want[i])
			}
		}
	}
	if _, err := Coarsen(withHists, 0); err == nil {
		t.Error("k = 0 accepted")
	}
	bad := []results.TimelinePoint{withHists[0], withHists[1]}
	bad[1].Histogram = "HISTFAAAAIF4nJNp"
	if _, err := Coarsen(bad, 2); err == nil {
		t.Error("a corrupt histogram was accepted")
	}
}

func TestThroughputs(t *testing.T) {
	pts := []results.TimelinePoint{
		{DurMs: 1000, Acked: 999, Warmup: true}, // warm-up: left out
		{DurMs: 1000, Acked: 50000},             // 50k/s
		{DurMs: 999.5, Acked: 60000},            // ticker jitter: full, 60,030/s
		{DurMs: 1000, Acked: 0},                 // a stall counts: 0/s
		{DurMs: 300, Acked: 20000},              // partial last interval: left out
	}
	got := Throughputs(pts)
	want := []float64{50000, 60000 / 0.9995, 0}
	if len(got) != len(want) {
		t.Fatalf("Throughputs = %v, want %v", got, want)
	}
	for i := range want {
		if !histtest.Near(got[i], want[i], 1e-12) {
			t.Errorf("Throughputs[%d] = %v, want %v", i, got[i], want[i])
		}
	}
	if Throughputs(nil) != nil {
		t.Error("Throughputs(nil) is not nil")
	}
}
