package keys

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// chiSquareP draws n keys from a sampler of s (seed 7) and returns the
// p-value of Pearson's chi-square test of their counts against pmf.
func chiSquareP(t *testing.T, s Space, pmf []float64, n int64) float64 {
	t.Helper()
	k, err := New(s, 7)
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]float64, s.Count)
	for seq := range n {
		counts[k.Index(seq)]++
	}
	stat := 0.0
	for i, p := range pmf {
		want := p * float64(n)
		stat += (counts[i] - want) * (counts[i] - want) / want
	}
	return 1 - distuv.ChiSquared{K: float64(len(pmf) - 1)}.CDF(stat)
}

// uniformPMF is the pmf of n equally likely keys.
func uniformPMF(n int) []float64 {
	p := make([]float64, n)
	for i := range p {
		p[i] = 1 / float64(n)
	}
	return p
}

// zipfPMF is the pmf of key k ∝ 1/(k+1)^s over n keys.
func zipfPMF(n int, s float64) []float64 {
	p := make([]float64, n)
	sum := 0.0
	for i := range p {
		p[i] = math.Pow(float64(i+1), -s)
		sum += p[i]
	}
	for i := range p {
		p[i] /= sum
	}
	return p
}

// TestGoodnessOfFit checks each sampler against its distribution with a
// chi-square test, and shows the test rejects a sampler measured against
// the wrong distribution.
func TestGoodnessOfFit(t *testing.T) {
	const n = 200_000
	for _, tc := range []struct {
		name  string
		space Space
		pmf   []float64
		fits  bool
	}{
		{"uniform 1000", Space{Distribution: Uniform, Count: 1000, Size: 8}, uniformPMF(1000), true},
		{"uniform 7", Space{Distribution: Uniform, Count: 7, Size: 1}, uniformPMF(7), true},
		{"zipf 1.2", Space{Distribution: Zipf, Count: 100, Size: 8, Exponent: 1.2}, zipfPMF(100, 1.2), true},
		{"zipf 0.99", Space{Distribution: Zipf, Count: 100, Size: 8, Exponent: 0.99}, zipfPMF(100, 0.99), true},
		{"zipf 2", Space{Distribution: Zipf, Count: 20, Size: 8, Exponent: 2}, zipfPMF(20, 2), true},
		// The test can fail: wrong distributions are rejected.
		{"zipf 1.2 is not zipf 1.1", Space{Distribution: Zipf, Count: 100, Size: 8, Exponent: 1.2}, zipfPMF(100, 1.1), false},
		{"uniform is not zipf", Space{Distribution: Uniform, Count: 100, Size: 8}, zipfPMF(100, 1.2), false},
		{"zipf is not uniform", Space{Distribution: Zipf, Count: 100, Size: 8, Exponent: 1.2}, uniformPMF(100), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := chiSquareP(t, tc.space, tc.pmf, n)
			if fits := p > 0.001; fits != tc.fits {
				t.Errorf("chi-square p = %.3g, want fit %v", p, tc.fits)
			}
		})
	}
}

// TestSequential checks the exact cycle of the sequential distribution.
func TestSequential(t *testing.T) {
	k, err := New(Space{Distribution: Sequential, Count: 3, Size: 4}, 99)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for seq := range int64(7) {
		got = append(got, string(k.Append(nil, seq)))
	}
	want := []string{"0000", "0001", "0002", "0000", "0001", "0002", "0000"}
	if !slices.Equal(got, want) {
		t.Errorf("keys = %v, want %v", got, want)
	}
}

// TestDeterministic checks a key depends on the seed and seq only (the
// values both clients must give are testdata/shared/keys.json's:
// TestSharedVectors).
func TestDeterministic(t *testing.T) {
	for _, tc := range []struct {
		space Space
	}{
		{Space{Distribution: Uniform, Count: 1000, Size: 8}},
		{Space{Distribution: Zipf, Count: 1000, Size: 8, Exponent: 1.2}},
	} {
		t.Run(tc.space.Distribution, func(t *testing.T) {
			a, _ := New(tc.space, 42)
			b, _ := New(tc.space, 42)
			other, _ := New(tc.space, 43)
			same := true
			for seq := int64(7); seq >= 0; seq-- { // any order: no state
				if a.Index(seq) != b.Index(seq) {
					t.Fatalf("seq %d: two samplers of one seed differ", seq)
				}
				same = same && a.Index(seq) == other.Index(seq)
			}
			if same {
				t.Error("seeds 42 and 43 gave the same keys")
			}
		})
	}
}

// TestCheck refuses key spaces that cannot generate keys.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name  string
		space Space
		want  string // "" = accepted
	}{
		{"keyless", Space{Distribution: None}, ""},
		{"unset", Space{}, ""},
		{"uniform", Space{Distribution: Uniform, Count: 1000, Size: 3}, ""},
		{"zipf below 1", Space{Distribution: Zipf, Count: 10, Size: 1, Exponent: 0.5}, ""},
		{"count 0", Space{Distribution: Uniform, Count: 0, Size: 8}, "key count must be in 1..10000000"},
		{"count too big", Space{Distribution: Uniform, Count: MaxCount + 1, Size: 8}, "key count"},
		{"size too small", Space{Distribution: Sequential, Count: 1001, Size: 3}, "it must be in 4..65536"},
		{"zipf 0", Space{Distribution: Zipf, Count: 10, Size: 2, Exponent: 0}, "zipf exponent must be a finite number > 0"},
		{"zipf NaN", Space{Distribution: Zipf, Count: 10, Size: 2, Exponent: math.NaN()}, "zipf exponent"},
		{"zipf Inf", Space{Distribution: Zipf, Count: 10, Size: 2, Exponent: math.Inf(1)}, "zipf exponent"},
		{"unknown", Space{Distribution: "gauss", Count: 10, Size: 2}, `unknown key distribution "gauss"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.space.Check()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
}

// TestKeyless returns no sampler for a keyless space.
func TestKeyless(t *testing.T) {
	k, err := New(Space{Distribution: None}, 1)
	if k != nil || err != nil {
		t.Errorf("New(none) = %v, %v; want nil, nil", k, err)
	}
}

// BenchmarkZipf measures one key of a 1,000,000-key Zipf space.
func BenchmarkZipf(b *testing.B) {
	k, _ := New(Space{Distribution: Zipf, Count: 1_000_000, Size: 8, Exponent: 1.2}, 1)
	var buf []byte
	for i := range int64(b.N) {
		buf = k.Append(buf[:0], i)
	}
}

// sharedVectors are testdata/shared/keys.json: key indexes for a seed that
// the Java worker's KeySampler test reads too.
type sharedVectors struct {
	Cases []struct {
		Distribution string  `json:"distribution"`
		Count        int64   `json:"count"`
		Size         int     `json:"size"`
		Exponent     float64 `json:"exponent"`
		Seed         int64   `json:"seed"`
		First        []int64 `json:"first"`
	} `json:"cases"`
}

// TestSharedVectors: the Go sampler gives the first indexes of every case
// of testdata/shared/keys.json, which the Java worker's test checks
// against its own sampler: one file, so Go and Java cannot drift apart.
func TestSharedVectors(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "testdata", "shared", "keys.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v sharedVectors
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	if len(v.Cases) == 0 {
		t.Fatal("no cases in testdata/shared/keys.json")
	}
	for _, c := range v.Cases {
		s, err := New(Space{Distribution: c.Distribution, Count: c.Count, Size: c.Size, Exponent: c.Exponent}, c.Seed)
		if err != nil {
			t.Fatalf("%s: %v", c.Distribution, err)
		}
		for seq, want := range c.First {
			if got := s.Index(int64(seq)); got != want {
				t.Errorf("%s seed %d: index of seq %d = %d, want %d", c.Distribution, c.Seed, seq, got, want)
			}
		}
	}
}
