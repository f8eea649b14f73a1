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
