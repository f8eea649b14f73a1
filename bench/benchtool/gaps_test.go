package main

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGaps(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	lines := []string{
		`{"started_at":"2026-01-01T00:00:00Z","elapsed_s":1.0}`,
		`{"started_at":"2026-01-01T00:00:01.25Z","elapsed_s":2.0,"audit_s":0.5}`,
		`{"started_at":"2026-01-01T00:00:04Z","elapsed_s":1.0,"timeline":{"measured_from_ms":500}}`,
		// The in-trial warm-up (500 ms before the measured window) is
		// measuring, not overhead.
		`{"started_at":"2026-01-01T00:00:05.75Z","elapsed_s":1.0}`,
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := fileGaps(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{0.25, 0.25, 0.25}
	if len(g) != len(want) {
		t.Fatalf("gaps = %v, want %v", g, want)
	}
	for i := range want {
		if math.Abs(g[i]-want[i]) > 1e-9 {
			t.Errorf("gaps = %v, want %v", g, want)
		}
	}
	var out strings.Builder
	if err := gaps([]string{path}, &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "n=3  median=0.250  max=0.250") {
		t.Errorf("gaps output %q", out.String())
	}
}

// TestGapsAll pools two files' gaps: the median over both and the count
// within 1 s.
func TestGapsAll(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, lines ...string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a := write("a.jsonl", `{"started_at":"2026-01-01T00:00:00Z","elapsed_s":1.0}`, `{"started_at":"2026-01-01T00:00:01.5Z","elapsed_s":1.0}`)
	b := write("b.jsonl", `{"started_at":"2026-01-01T00:00:00Z","elapsed_s":1.0}`, `{"started_at":"2026-01-01T00:00:03Z","elapsed_s":1.0}`,
		`{"started_at":"2026-01-01T00:00:04.25Z","elapsed_s":1.0}`)
	var out strings.Builder
	if err := gapsAll([]string{a, b}, &out); err != nil {
		t.Fatal(err)
	}
	// Gaps 0.5, 2 and 0.25: median 0.5, two within 1 s.
	if !strings.Contains(out.String(), "n=3  median=0.500  max=2.000  within 1 s: 2 of 3") {
		t.Errorf("gaps-all output %q", out.String())
	}
}
