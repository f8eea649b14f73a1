package prodlab_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDocsQuoteProxyCost: what the docs say the netem proxy costs is what
// bench/RESULTS.md §5 last measured (its ratio and interval), and no page
// claims it costs nothing measurable: a benchmark rerun that changes the
// figure must change the docs too.
func TestDocsQuoteProxyCost(t *testing.T) {
	bench, err := os.ReadFile(filepath.Join("bench", "RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Geometric mean ratio proxied/direct: \*\*([0-9.]+)\*\*, 99\.9 % confidence interval (\[[0-9.]+, [0-9.]+\])`).FindSubmatch(bench)
	if m == nil {
		t.Fatal("bench/RESULTS.md has no proxied/direct ratio in §5")
	}
	want := "proxied/direct " + string(m[1]) + ", 99.9 % interval " + string(m[2])
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		page   string
		quotes bool // the page must quote the figure
	}
	tests := []row{{"README.md", false}}
	for _, p := range pages {
		tests = append(tests, row{p, p == filepath.Join("docs", "faults.md")})
	}
	for _, tt := range tests {
		t.Run(tt.page, func(t *testing.T) {
			data, err := os.ReadFile(tt.page)
			if err != nil {
				t.Fatal(err)
			}
			text := strings.Join(strings.Fields(string(data)), " ")
			if strings.Contains(text, "no measurable") {
				t.Errorf("%s claims something costs nothing measurable", tt.page)
			}
			if tt.quotes && !strings.Contains(text, want) {
				t.Errorf("%s does not quote bench/RESULTS.md §5: %q", tt.page, want)
			}
		})
	}
}
