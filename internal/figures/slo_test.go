package figures

import "testing"

// TestSLOText: an SLO's bounds in percentile order, short and long, and
// nothing for an SLO that bounds none.
func TestSLOText(t *testing.T) {
	slo := map[string]float64{"e2e.p99": 250, "p99": 100}
	for _, tc := range []struct {
		name string
		got  string
		want string
	}{
		{"short", SLOText(slo), "p99 ≤ 100 ms and end-to-end p99 ≤ 250 ms"},
		{"long", SLOLongText(slo), "p99 ≤ 100 ms from the intended send time and end-to-end p99 ≤ 250 ms"},
		{"p99.9", SLOText(map[string]float64{"p999": 12.5}), "p99.9 ≤ 12.5 ms"},
		{"none", SLOText(map[string]float64{"p42": 1}), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// TestSLOPercentilesName: each SLO percentile's metric is a figure, and
// SLOByKey finds each by its key and nothing else.
func TestSLOPercentilesName(t *testing.T) {
	keys := map[string]bool{}
	for _, k := range MetricKeys() {
		keys[k] = true
	}
	for _, p := range SLOPercentiles {
		if !keys[p.Metric] {
			t.Errorf("SLO percentile %s: no metric %s", p.Key, p.Metric)
		}
		if got, ok := SLOByKey(p.Key); !ok || got != p {
			t.Errorf("SLOByKey(%q) = %+v, %v", p.Key, got, ok)
		}
	}
	if _, ok := SLOByKey("p42"); ok {
		t.Error("SLOByKey found p42")
	}
}
