package stats

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/prodlab/prodlab/internal/histtest"
)

// The reference values below are scipy 1.17.1's (stats.t.ppf,
// stats.ttest_ind(..., equal_var=False)) and agree with printed t tables
// to their four digits.
func TestTQuantile(t *testing.T) {
	tests := []struct {
		p, df, want float64
	}{
		// 99.9 % two-sided with one trial pair: the famous 636.619.
		{0.9995, 1, 636.6192487687897},
		// Three trials.
		{0.9995, 2, 31.599054576445365},
		// Five trials (table: 8.610).
		{0.9995, 4, 8.610301581379522},
		// Ten trials (table: 4.781).
		{0.9995, 9, 4.780912585931217},
		// Thirty trials (table: 3.659).
		{0.9995, 29, 3.6594050194663748},
		// Many trials approach the normal 3.291.
		{0.9995, 1000, 3.300282648423944},
		// 95 % two-sided, ten samples (table: 2.262).
		{0.975, 9, 2.262157162798205},
		// Fractional degrees of freedom, as Welch's test produces.
		{0.975, 24.9, 2.0599580324598343},
	}
	for _, tt := range tests {
		if got := TQuantile(tt.p, tt.df); !histtest.Near(got, tt.want, 1e-9) {
			t.Errorf("TQuantile(%v, %v) = %.12g, want %.12g", tt.p, tt.df, got, tt.want)
		}
	}
}

func TestSummarize(t *testing.T) {
	tests := []struct {
		name string
		xs   []float64
		want Summary
		str  string
	}{
		// Five throughputs: mean 52108, sd 1135.48, and the 95 % half-width
		// 2.7764·1135.48/√5 = 1409.89 (scipy).
		{"five trials", []float64{52340, 51000, 53500, 50900, 52800},
			Summary{N: 5, Mean: 52108, SD: 1135.4822763918423, Err: 1409.8874631942065}, "52,108 ± 1,410"},
		// One trial: no spread, so no error; String shows the mean alone.
		{"one trial", []float64{51.11}, Summary{N: 1, Mean: 51.11, SD: math.NaN(), Err: math.NaN()}, "51.1"},
		// No trial: nothing to show.
		{"none", nil, Summary{N: 0, Mean: math.NaN(), SD: math.NaN(), Err: math.NaN()}, "-"},
		// Identical trials: zero error, shown as such.
		{"identical", []float64{2.5, 2.5, 2.5}, Summary{N: 3, Mean: 2.5, SD: 0, Err: 0}, "2.50 ± 0.00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Summarize(tt.xs, DefaultConfidence)
			if got.N != tt.want.N || !histtest.Near(got.Mean, tt.want.Mean, 1e-12) ||
				!histtest.Near(got.SD, tt.want.SD, 1e-12) || !histtest.Near(got.Err, tt.want.Err, 1e-9) {
				t.Errorf("Summarize = %+v, want %+v", got, tt.want)
			}
			if got.String() != tt.str {
				t.Errorf("String = %q, want %q", got.String(), tt.str)
			}
		})
	}
}

func TestSummaryFormat(t *testing.T) {
	s := Summary{N: 3, Mean: 1234567.891, Err: 1234.6}
	tests := []struct {
		name string
		prec int
		want string
	}{
		// Explicit precision, grouping in both figures.
		{"two decimals", 2, "1,234,567.89 ± 1,234.60"},
		// Automatic: no decimals above 100.
		{"auto", -1, "1,234,568 ± 1,235"},
	}
	for _, tt := range tests {
		if got := s.Format(tt.prec); got != tt.want {
			t.Errorf("%s: Format(%d) = %q, want %q", tt.name, tt.prec, got, tt.want)
		}
	}
	// Small and negative numbers.
	for v, want := range map[float64]string{0.0123: "0.0123", -1234.4: "-1,234", 0.5: "0.500", 12.34: "12.3"} {
		if got := (Summary{N: 1, Mean: v}).String(); got != want {
			t.Errorf("String(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestSummaryJSON(t *testing.T) {
	// NaN cannot be JSON: a single trial's SD and Err are null, and come
	// back as NaN.
	b, err := json.Marshal(Summarize([]float64{3}, DefaultConfidence))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"n":1,"mean":3,"sd":null,"err":null,"confidence":0.95}`; string(b) != want {
		t.Errorf("json = %s, want %s", b, want)
	}
	var back Summary
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.N != 1 || back.Mean != 3 || !math.IsNaN(back.SD) || !math.IsNaN(back.Err) {
		t.Errorf("round trip = %+v", back)
	}
}
