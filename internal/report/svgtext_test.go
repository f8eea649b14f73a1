package report

import (
	"strings"
	"testing"
)

func TestFitLines(t *testing.T) {
	room := float64(chartW - 2*titleMargin)
	// A title that fits stays one line, centred over the plot.
	if l, x, cut := titleLayout("Throughput per scenario"); len(l) != 1 || cut || x != (plotLeft+plotRight)/2 {
		t.Errorf("short title: %q at %v cut %v", l, x, cut)
	}
	// A scenario label breaks after its ": ", centred on the chart.
	long := "enable.idempotence=false layout=3 brokers RF 3 min.insync 2 faults=connection cuts: p99 latency per interval"
	if l, x, cut := titleLayout(long); len(l) != 2 || cut || x != chartW/2 || l[1] != "p99 latency per interval" {
		t.Errorf("long title: %q at %v cut %v", l, x, cut)
	}
	// Too long for two lines: shortened with "…", every line fits.
	l, cut := fitLines(strings.Repeat("key=value ", 40), room, titlePx, true, 2)
	if len(l) != 2 || !cut || !strings.HasSuffix(l[1], "…") {
		t.Errorf("very long title: %q cut %v", l, cut)
	}
	// One unbroken word is split by characters.
	l, _ = fitLines(strings.Repeat("x", 300), room, titlePx, true, 3)
	for _, s := range l {
		if textWidth(s, titlePx, true) > room {
			t.Errorf("line %q wider than %v", s, room)
		}
	}
}

func TestWrapFigure(t *testing.T) {
	// Numbers keep their units and "±" its error; text still wraps.
	for in, want := range map[string]string{
		"24,489 ± 2,272":           "24,489 ±\u00a02,272",
		"97.3 MiB ± 880.4 KiB":     "97.3\u00a0MiB ±\u00a0880.4\u00a0KiB",
		"19,982 ± 2,117 !":         "19,982 ±\u00a02,117 !",
		"KIP-1269: broker retains": "KIP-1269: broker retains",
	} {
		if got := wrapFigure(in); got != want {
			t.Errorf("wrapFigure(%q) = %q, want %q", in, got, want)
		}
	}
	if h := sideHeading([]string{"CPU cost", "network", "delivery audit"}); h != "CPU cost, network and delivery audit" {
		t.Errorf("sideHeading = %q", h)
	}
	if h := sideHeading([]string{"partitions"}); h != "Partitions" {
		t.Errorf("sideHeading = %q", h)
	}
}
