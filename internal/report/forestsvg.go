package report

import (
	"fmt"
	"html/template"
	"math"

	"github.com/prodlab/prodlab/internal/stats"
)

// forestID is the findings picture's id in report.html.
const forestID = "findings-forest"

// The findings picture's columns and rows, in SVG user units: the
// number and label, the plot, the figure, the verdict.
const (
	fLabelX     = 12
	fNumW       = 26 // the row's number, right-aligned, then its label
	fLabelRoom  = 262
	fPlotL      = 290
	fPlotR      = 630
	fFigX       = 652
	fFigRoom    = 156
	fVerdictX   = 816
	fVerdictRm  = 136
	fTop        = 78 // the first row's top
	fRowH       = 32
	fHeadH      = 26 // a metric's heading
	fBottom     = 78 // below the last row: ticks, axis label, legend
	fTextPx     = 12
	fLineH      = 13
	fMarkR      = 5
	fArrowLen   = 8
	decidedCol  = "#0072B2"
	openCol     = "#E69F00"
	untestedCol = "#57606a"
)

// forestColours are the row states' colours (Okabe and Ito, as the
// charts): blue decided, orange open, grey untested.
var forestColours = map[string]string{forestDecided: decidedCol, forestOpen: openCol, forestUntested: untestedCol}

// forestSVG draws f: a title, the ticks above and below, one group per
// metric headed by it, one <g class="forest-row STATE"> per finding with
// its tooltip (<title>), and a legend. A decided row's estimate is a
// filled dot on a solid interval; an open row's a ring on a dashed one;
// the verdict column says which in words.
func forestSVG(f forest) string {
	h := fTop + fBottom
	for _, g := range f.Groups {
		h += fHeadH + fRowH*len(g.Rows)
	}
	bottom := h - fBottom
	x := func(p float64) float64 { return fPlotL + p*(fPlotR-fPlotL) }
	var w svgWriter
	title := "Findings at a glance: each candidate's difference from its baseline"
	w.printf(`<svg id="%s" class="chart forest" viewBox="0 0 %d %d" role="img" aria-labelledby="%s-title">`+"\n", forestID, chartW, h, forestID)
	w.printf(`<title id="%s-title">%s</title>`+"\n", forestID, esc(title))
	w.printf(`<rect class="bg" x="0" y="0" width="%d" height="%d"/>`+"\n", chartW, h)
	w.printf(`<text class="chart-title" x="%d" y="26">%s</text>`+"\n", chartW/2, esc(title))
	// The columns' heads stand above the ticks' labels, clear of them.
	w.printf(`<text class="forest-col" x="%d" y="%d">candidate vs baseline</text>`+"\n", fLabelX+fNumW, fTop-26)
	w.printf(`<text class="forest-col" x="%d" y="%d">difference [interval]</text>`+"\n", fFigX, fTop-26)
	w.printf(`<text class="forest-col" x="%d" y="%d">verdict</text>`+"\n", fVerdictX, fTop-26)
	for _, t := range f.Ticks {
		tx := num(x(f.pos(t)))
		w.printf(`<line class="grid" x1="%s" y1="%d" x2="%s" y2="%d"/>`+"\n", tx, fTop, tx, bottom)
		w.printf(`<text class="tick x-tick" x="%s" y="%d">%s</text>`+"\n", tx, fTop-8, esc(tickLabel(t)))
		w.printf(`<text class="tick x-tick" x="%s" y="%d">%s</text>`+"\n", tx, bottom+16, esc(tickLabel(t)))
	}
	y := fTop
	for _, g := range f.Groups {
		w.printf(`<text class="forest-group" x="%d" y="%d">%s</text>`+"\n", fLabelX, y+fHeadH-8, esc(g.Heading))
		y += fHeadH
		for _, r := range g.Rows {
			forestRowSVG(&w, r, y, x)
			y += fRowH
		}
	}
	zx := num(x(f.pos(0)))
	w.printf(`<line class="forest-zero" x1="%s" y1="%d" x2="%s" y2="%d"/>`+"\n", zx, fTop, zx, bottom)
	w.printf(`<text class="axis-label x-label" x="%d" y="%d">difference of the candidate from its baseline (%%)</text>`+"\n",
		(fPlotL+fPlotR)/2, bottom+34)
	forestLegend(&w, f, h-14)
	w.printf("</svg>\n")
	return w.String()
}

// forestRowSVG draws row r with its top at y: the band, the interval
// (arrows where it is clipped), the estimate, the label, the figure and
// the verdict, in a group titled by the row's question and sentence.
func forestRowSVG(w *svgWriter, r forestRow, y int, x func(float64) float64) {
	col := forestColours[r.State]
	mid := float64(y) + fRowH/2
	w.printf(`<g class="forest-row %s">`+"\n", r.State)
	w.printf(`<title>%s</title>`+"\n", esc(r.Tip))
	w.printf(`<rect class="forest-band" x="%s" y="%d" width="%s" height="%d"/>`+"\n",
		num(x(r.BandLo)), y, num(x(r.BandHi)-x(r.BandLo)), fRowH)
	if finite(r.From) && finite(r.To) {
		dash := ""
		if r.State != forestDecided {
			dash = ` stroke-dasharray="5 3"`
		}
		w.printf(`<line class="forest-ci" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"%s/>`+"\n",
			num(x(r.From)), num(mid), num(x(r.To)), num(mid), col, dash)
		if r.ClipLo {
			forestArrow(w, x(0), mid, -1, col)
		}
		if r.ClipHi {
			forestArrow(w, x(1), mid, 1, col)
		}
	}
	if finite(r.Est) {
		fill := col
		if r.State != forestDecided {
			fill = "#fff"
		}
		w.printf(`<circle class="forest-est" cx="%s" cy="%s" r="%d" fill="%s" stroke="%s" stroke-width="2"/>`+"\n",
			num(x(r.Est)), num(mid), fMarkR, fill, col)
	}
	w.printf(`<text class="forest-num" x="%d" y="%s">%d.</text>`+"\n", fLabelX+fNumW-6, num(mid+4), r.N)
	forestCell(w, "forest-label", fLabelX+fNumW, mid, fLabelRoom-fNumW, r.Label)
	forestCell(w, "forest-fig", fFigX, mid, fFigRoom, r.Figure)
	forestCell(w, "forest-verdict "+r.State, fVerdictX, mid, fVerdictRm, r.Verdict)
	w.printf("</g>\n")
}

// forestCell writes s in class at x, centred on mid in at most two lines
// of room (fitLines: a text that does not fit is cut, its full text in
// its tooltip).
func forestCell(w *svgWriter, class string, x, mid float64, room float64, s string) {
	if s == "" {
		return
	}
	lines, cut := fitLines(s, room, fTextPx, false, 2)
	base := int(math.Round(mid + 4 - float64(len(lines)-1)*fLineH/2))
	w.text(class, x, base, fLineH, lines, cutText(s, cut))
}

// forestArrow draws an arrowhead at (ax, ay) pointing left (dir −1) or
// right (+1): the interval runs on past the axis.
func forestArrow(w *svgWriter, ax, ay float64, dir float64, col string) {
	back := ax - dir*fArrowLen
	w.printf(`<polygon class="forest-clip" points="%s,%s %s,%s %s,%s" fill="%s"/>`+"\n",
		num(ax), num(ay), num(back), num(ay-5), num(back), num(ay+5), col)
}

// forestLegend explains the marks in one line at baseline y: a decided
// row, an open one, the band and, when an interval is clipped, the arrow.
func forestLegend(w *svgWriter, f forest, y int) {
	lx := float64(fLabelX)
	entry := func(text string) {
		w.printf(`<text class="legend-entry" x="%s" y="%d">%s</text>`+"\n", num(lx), y, esc(text))
		lx += textWidth(text, legendPx, false) + 24
	}
	my := float64(y) - 4
	w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2"/>`+"\n", num(lx), num(my), num(lx+28), num(my), decidedCol)
	w.printf(`<circle cx="%s" cy="%s" r="%d" fill="%s" stroke="%s" stroke-width="2"/>`+"\n", num(lx+14), num(my), fMarkR, decidedCol, decidedCol)
	lx += 36
	entry("decided")
	w.printf(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="2" stroke-dasharray="5 3"/>`+"\n", num(lx), num(my), num(lx+28), num(my), openCol)
	w.printf(`<circle cx="%s" cy="%s" r="%d" fill="#fff" stroke="%s" stroke-width="2"/>`+"\n", num(lx+14), num(my), fMarkR, openCol)
	lx += 36
	entry("open (cannot tell yet)")
	w.printf(`<rect class="forest-band" x="%s" y="%s" width="20" height="12"/>`+"\n", num(lx), num(my-6))
	lx += 26
	entry(fmt.Sprintf("±%s %% equivalence band", trimFloat(f.Margin*100)))
	if f.Clipped {
		forestArrow(w, lx+10, my, 1, untestedCol)
		lx += 16
		entry("interval runs past the axis")
	}
}

// forestChart is the findings picture as report.html shows it: the SVG
// and a caption saying how to read it at confidence level.
func forestChart(f forest, level float64) *pageChart {
	c := fmt.Sprintf("One row per finding, numbered as below: the dot is the candidate's estimated difference from its baseline, "+
		"the bar its %s confidence interval, the shaded band the ±%s %% equivalence margin. A filled dot on a solid bar is decided "+
		"(the interval lies on one side of 0, or inside the band); a ring on a dashed bar is open: the interval is too wide to tell yet.",
		stats.Percent(levelOr(level)), trimFloat(f.Margin*100))
	if f.Clipped {
		c += " An arrow marks an interval that runs past the axis; its figures are in the difference column."
	}
	return &pageChart{ID: forestID, SVG: template.HTML(forestSVG(f)), Caption: c}
}
