package main

import (
	"fmt"
	"io"
	"slices"
	"time"
)

// gaps reads results.jsonl files and prints, per file, the time each trial
// spent outside its measurement: from one trial's start to the next one's,
// minus the measured elapsed time, the in-trial warm-up before it (the
// timeline's measured_from_ms) and the audit. That is topic creation and
// readiness, driver start, disk size and topic deletion: the cost of a
// round that is not the producer's.
//
//	benchtool gaps results/*/results.jsonl
//	→ FILE  n=N  median=S  max=S   (seconds)
func gaps(files []string, w io.Writer) error {
	if len(files) == 0 {
		return fmt.Errorf("gaps: give results.jsonl files")
	}
	for _, f := range files {
		g, err := fileGaps(f)
		if err != nil {
			return fmt.Errorf("gaps: %w", err)
		}
		if len(g) == 0 {
			fmt.Fprintf(w, "%s  n=0\n", f)
			continue
		}
		slices.Sort(g)
		fmt.Fprintf(w, "%s  n=%d  median=%.3f  max=%.3f  all=%.2f\n", f, len(g), median(g), g[len(g)-1], g)
	}
	return nil
}

// gapsAll pools every trial of the files: the median and the share of
// trials within 1 s, over all of them together.
//
//	benchtool gaps-all results/*/results.jsonl
//	→ all  n=N  median=S  within 1 s: K of N
func gapsAll(files []string, w io.Writer) error {
	var all []float64
	for _, f := range files {
		g, err := fileGaps(f)
		if err != nil {
			return fmt.Errorf("gaps-all: %w", err)
		}
		all = append(all, g...)
	}
	if len(all) == 0 {
		return fmt.Errorf("gaps-all: no trials")
	}
	slices.Sort(all)
	within := 0
	for _, g := range all {
		if g <= 1 {
			within++
		}
	}
	fmt.Fprintf(w, "all  n=%d  median=%.3f  max=%.3f  within 1 s: %d of %d\n", len(all), median(all), all[len(all)-1], within, len(all))
	return nil
}

func fileGaps(path string) ([]float64, error) {
	type rec struct {
		StartedAt string  `json:"started_at"`
		ElapsedS  float64 `json:"elapsed_s"`
		AuditS    float64 `json:"audit_s"`
		Timeline  *struct {
			MeasuredFromMs float64 `json:"measured_from_ms"`
		} `json:"timeline"`
	}
	recs, err := readJSONL[rec](path)
	if err != nil {
		return nil, err
	}
	var out []float64
	for i := 1; i < len(recs); i++ {
		a, err1 := time.Parse(time.RFC3339Nano, recs[i-1].StartedAt)
		b, err2 := time.Parse(time.RFC3339Nano, recs[i].StartedAt)
		if err1 != nil || err2 != nil {
			continue
		}
		warm := 0.0
		if tl := recs[i-1].Timeline; tl != nil {
			warm = tl.MeasuredFromMs / 1000
		}
		out = append(out, b.Sub(a).Seconds()-warm-recs[i-1].ElapsedS-recs[i-1].AuditS)
	}
	return out, nil
}

func median(s []float64) float64 {
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
