package report

import (
	"strings"
	"unicode"
)

// SVG text does not wrap and is clipped at the edge of its SVG, so the
// charts size their long texts (titles holding a scenario's label, legend
// entries) themselves: a text wider than its room is wrapped, and what
// still does not fit is shortened with "…" and its full text kept in a
// <title> tooltip. Widths are estimated from per-character widths of
// DejaVu Sans, one of the widest common sans-serif fonts, so that other
// fonts fit too; the browser test checks the result at 1280 px.

// Text sizes in SVG user units, as in style.css.
const (
	titlePx  = 17 // .chart-title, bold
	legendPx = 12 // .legend-entry
	// titleMargin keeps a title off the SVG's left and right edges.
	titleMargin = 12
	// titleLineH is the distance between the lines of a wrapped title;
	// the SVG grows by it at the top so that the plot keeps its place.
	titleLineH = 22
	// legendWrapH is the distance between the lines of a wrapped legend
	// entry.
	legendWrapH = 14
)

// runeEm is the estimated advance of r in em of a regular sans-serif.
func runeEm(r rune) float64 {
	switch {
	case r == ' ':
		return 0.32
	case strings.ContainsRune("ijl.,:;'!|", r):
		return 0.3
	case strings.ContainsRune("ftr()[]/-", r):
		return 0.42
	case r == 'm' || r == 'M' || r == 'W' || r == '%':
		return 1.0
	case r == 'w':
		return 0.82
	case unicode.IsUpper(r):
		return 0.76
	case r == '…' || r == '×' || r == '±' || r == '→':
		return 0.84
	default:
		return 0.64
	}
}

// textWidth estimates the width of s at px, bold or not (bold text is
// about a tenth wider).
func textWidth(s string, px float64, bold bool) float64 {
	w := 0.0
	for _, r := range s {
		w += runeEm(r)
	}
	if bold {
		w *= 1.1
	}
	return w * px
}

// fitLines wraps s into at most maxLines lines no wider than room (words
// break only at spaces, except a word too long for a line), preferring a
// break after ": " (a chart title's scenario label) when it gives
// maxLines lines or fewer. When the text needs more lines, the last is
// shortened with "…" and cut reports it.
func fitLines(s string, room, px float64, bold bool, maxLines int) (lines []string, cut bool) {
	fits := func(l string) bool { return textWidth(l, px, bold) <= room }
	if fits(s) {
		return []string{s}, false
	}
	if i := strings.LastIndex(s, ": "); i > 0 && maxLines >= 2 {
		head, tail := s[:i+1], s[i+2:]
		if h, hc := fitLines(head, room, px, bold, maxLines-1); !hc && fits(tail) {
			return append(h, tail), false
		}
	}
	lines = wrapWords(strings.Fields(s), fits)
	if len(lines) <= maxLines {
		return lines, false
	}
	last := strings.Join(lines[maxLines-1:], " ")
	for last != "" && !fits(last+"…") {
		r := []rune(last)
		last = strings.TrimRight(string(r[:len(r)-1]), " ")
	}
	return append(lines[:maxLines-1], last+"…"), true
}

// wrapWords fills lines greedily with words while fits says they fit; a
// word that does not fit a line alone is split by characters.
func wrapWords(words []string, fits func(string) bool) []string {
	var lines []string
	cur := ""
	for _, w := range words {
		switch {
		case cur == "":
		case fits(cur + " " + w):
			cur += " " + w
			continue
		default:
			lines = append(lines, cur)
		}
		cur = w
		for !fits(cur) && len([]rune(cur)) > 1 {
			r := []rune(cur)
			n := len(r) - 1
			for n > 1 && !fits(string(r[:n])) {
				n--
			}
			lines = append(lines, string(r[:n]))
			cur = string(r[n:])
		}
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}

// titleLayout places a chart title: its lines, the x of their centre and
// whether it was shortened. A title that fits centres over the plot as
// before; one too wide for that centres on the whole chart, and one too
// wide for the chart wraps onto a second line.
func titleLayout(title string) (lines []string, x float64, cut bool) {
	lines, cut = fitLines(title, chartW-2*titleMargin, titlePx, true, 2)
	x = (plotLeft + plotRight) / 2
	if len(lines) > 1 || textWidth(lines[0], titlePx, true)/2 > x-titleMargin {
		x = chartW / 2
	}
	return lines, x, cut
}
