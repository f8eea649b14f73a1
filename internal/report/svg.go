package report

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// The charts of report.html are hand-rolled SVG: a bar chart and a line
// chart cover every figure, the output is small, self-contained and
// deterministic (golden-testable), and no plotting dependency is needed.

// Chart geometry, in SVG user units (the SVG scales to its container).
const (
	chartW      = 960
	chartH      = 400
	plotLeft    = 84
	plotRight   = 640 // legend to the right of this
	plotTop     = 48
	plotBottom  = 330
	legendLeft  = plotRight + 24
	legendLineH = 18
	maxLegend   = 16 // entries beyond are summarised as "… n more"
)

// palette is Okabe and Ito's colour-blind-safe set, cycled over series.
var palette = []string{"#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"}

// color returns series i's colour.
func color(i int) string { return palette[i%len(palette)] }

// dashes varies the line style once the palette repeats, so every series
// stays distinguishable.
func dashes(i int) string {
	switch (i / len(palette)) % 3 {
	case 1:
		return ` stroke-dasharray="6 3"`
	case 2:
		return ` stroke-dasharray="2 3"`
	}
	return ""
}

// tick is an axis tick at value V labelled Label.
type tick struct {
	V     float64
	Label string
}

// datum is one plotted value with its error (NaN: none).
type datum struct {
	X, Y, Err float64
	// Hollow draws the point's marker as a ring: a point that does not
	// mean what the others do (a rate the producer did not keep up with).
	Hollow bool
	// Title, when set, is the marker's tooltip instead of "series: value".
	Title string
}

// lineSeries is one line of a line chart.
type lineSeries struct {
	Name   string
	Points []datum
	// Dots draws the points alone, without the line between them (a
	// scatter of candidates).
	Dots bool
}

// lineChart is a chart of lines over a numeric x axis.
type lineChart struct {
	ID, Title, XLabel, YLabel string
	Series                    []lineSeries
	// Legend titles the legend, one line each (the matrix keys).
	Legend []string
	// XTicks replaces automatic x ticks (the latency chart's percentiles).
	XTicks []tick
	// Markers draws a dot at every point (sparse data, such as matrix
	// values); curves sampled densely leave them off.
	Markers bool
	// Bands shade x ranges (a timeline's warm-up); Marks draw vertical
	// lines (where the measured window starts, fault events).
	Bands []band
	Marks []mark
	// LogY puts the y axis on a log scale (ticks at 1, 2 and 5 × 10^k):
	// for figures spanning decades, such as latency against load.
	LogY bool
	// Levels draw horizontal reference lines across the plot (an SLO).
	Levels []level
}

// level is a horizontal line at Y with a label at its right end.
type level struct {
	Y     float64
	Label string
}

// band is a shaded x range of a line chart, styled by Class.
type band struct {
	X0, X1       float64
	Class, Title string
}

// mark is a vertical line at X, styled by Class, with an optional label
// at its top and a tooltip.
type mark struct {
	X                   float64
	Class, Label, Title string
}

// barChart is a grouped bar chart: one cluster per group, one bar per
// series in each, with error bars.
type barChart struct {
	ID, Title, XLabel, YLabel string
	Groups                    []string
	Series                    []string
	// Legend titles the legend, one line each (the matrix keys).
	Legend []string
	// Values[g][s] is series s in group g; a NaN Y is a missing bar.
	Values [][]datum
}

// svgWriter accumulates SVG markup.
type svgWriter struct{ strings.Builder }

// printf appends formatted markup.
func (w *svgWriter) printf(format string, a ...any) { fmt.Fprintf(&w.Builder, format, a...) }

// esc escapes text for SVG (XML) content and attributes.
func esc(s string) string { return html.EscapeString(s) }

// num renders a coordinate compactly.
func num(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// open starts a chart's SVG with its title, axis labels and frame. A title
// that wraps onto a second line grows the SVG upwards by a line (a
// negative viewBox top), so the plot and everything below keep their
// coordinates.
func (w *svgWriter) open(id, title, xLabel, yLabel string) {
	lines, x, cut := titleLayout(title)
	top := (len(lines) - 1) * titleLineH
	w.printf(`<svg id="%s" class="chart" viewBox="0 %d %d %d" role="img" aria-labelledby="%s-title">`+"\n",
		esc(id), -top, chartW, chartH+top, esc(id))
	w.printf(`<title id="%s-title">%s</title>`+"\n", esc(id), esc(title))
	w.printf(`<rect class="bg" x="0" y="%d" width="%d" height="%d"/>`+"\n", -top, chartW, chartH+top)
	full := ""
	if cut {
		full = title
	}
	w.text("chart-title", x, 26-top, titleLineH, lines, full)
	w.printf(`<text class="axis-label x-label" x="%d" y="%d">%s</text>`+"\n", (plotLeft+plotRight)/2, chartH-22, esc(xLabel))
	w.printf(`<text class="axis-label y-label" transform="translate(20 %d) rotate(-90)">%s</text>`+"\n", (plotTop+plotBottom)/2, esc(yLabel))
}

// text writes a text of class at x with its first line's baseline at y,
// the other lines lineH apart, and full, when not empty, as its tooltip
// (the whole of a shortened text).
func (w *svgWriter) text(class string, x float64, y, lineH int, lines []string, full string) {
	xs := strconv.FormatFloat(x, 'f', -1, 64)
	if len(lines) == 1 && full == "" {
		w.printf(`<text class="%s" x="%s" y="%d">%s</text>`+"\n", class, xs, y, esc(lines[0]))
		return
	}
	w.printf(`<text class="%s" x="%s" y="%d">`, class, xs, y)
	if full != "" {
		w.printf(`<title>%s</title>`, esc(full))
	}
	for i, l := range lines {
		w.printf(`<tspan x="%s" y="%d">%s</tspan>`, xs, y+i*lineH, esc(l))
	}
	w.printf("</text>\n")
}

// yAxis draws horizontal grid lines and labels for ticks on a linear scale
// from 0 to top, returning the value→y mapping.
func (w *svgWriter) yAxis(ticks []tick, top float64) func(float64) float64 {
	y := func(v float64) float64 { return plotBottom - v/top*(plotBottom-plotTop) }
	w.axes(ticks, y)
	return y
}

// yAxisLog draws the y axis of ticks on a log scale from bottom to top
// (both > 0), returning the value→y mapping; values outside the axis (0
// included) map to its ends.
func (w *svgWriter) yAxisLog(ticks []tick, bottom, top float64) func(float64) float64 {
	span := math.Log(top) - math.Log(bottom)
	y := func(v float64) float64 {
		switch {
		case !(v > bottom):
			return plotBottom
		case v >= top:
			return plotTop
		}
		return plotBottom - (math.Log(v)-math.Log(bottom))/span*(plotBottom-plotTop)
	}
	w.axes(ticks, y)
	return y
}

// axes draws the horizontal grid lines and labels of ticks through y, and
// the two axes.
func (w *svgWriter) axes(ticks []tick, y func(float64) float64) {
	for _, t := range ticks {
		w.printf(`<line class="grid" x1="%d" y1="%s" x2="%d" y2="%s"/>`+"\n", plotLeft, num(y(t.V)), plotRight, num(y(t.V)))
		w.printf(`<text class="tick y-tick" x="%d" y="%s">%s</text>`+"\n", plotLeft-6, num(y(t.V)+4), esc(t.Label))
	}
	w.printf(`<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`+"\n", plotLeft, plotTop, plotLeft, plotBottom)
	w.printf(`<line class="axis" x1="%d" y1="%d" x2="%d" y2="%d"/>`+"\n", plotLeft, plotBottom, plotRight, plotBottom)
}

// legend draws the legend to the right of the plot: title lines (the
// matrix keys whose values the entries list, "Legend" without), then the
// entries; lines draws line swatches, otherwise squares. Texts too wide
// for the room right of the plot wrap onto a second line (shortened with
// their full text as a tooltip beyond), and entries that do not fit above
// the bottom of the chart, or beyond maxLegend, are summarised as
// "… n more".
func (w *svgWriter) legend(title []string, names []string, lines bool) {
	const bottom = chartH - 6
	w.printf(`<g class="legend">` + "\n")
	if len(title) == 0 {
		title = []string{"Legend"}
	}
	y := plotTop
	for _, t := range title {
		ls, cut := fitLines(t, chartW-titleMargin-legendLeft, legendPx, true, 2)
		w.text("legend-title", legendLeft, y, legendWrapH, ls, cutText(t, cut))
		y += legendLineH + (len(ls)-1)*legendWrapH
	}
	for i, n := range names {
		ls, cut := fitLines(n, chartW-titleMargin-legendLeft-24, legendPx, false, 2)
		end := y + (len(ls)-1)*legendWrapH
		if i == maxLegend || end > bottom || (i < len(names)-1 && end+legendLineH > bottom) {
			w.printf(`<text class="legend-entry" x="%d" y="%d">… %d more</text>`+"\n", legendLeft, y, len(names)-i)
			break
		}
		if lines {
			w.printf(`<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="3"%s/>`+"\n",
				legendLeft, y-4, legendLeft+18, y-4, color(i), dashes(i))
		} else {
			w.printf(`<rect x="%d" y="%d" width="12" height="12" fill="%s"/>`+"\n", legendLeft+3, y-11, color(i))
		}
		w.text("legend-entry", legendLeft+24, y, legendWrapH, ls, cutText(n, cut))
		y = end + legendLineH
	}
	w.printf("</g>\n</svg>\n")
}

// cutText is s when cut (a shortened text's tooltip), "" otherwise.
func cutText(s string, cut bool) string {
	if cut {
		return s
	}
	return ""
}

// niceTicks returns about n round ticks (1, 2 or 5 × 10^k apart) from 0 to
// at least hi, and the top of the axis.
func niceTicks(hi float64, n int) ([]tick, float64) {
	if !(hi > 0) || math.IsInf(hi, 0) {
		hi = 1
	}
	raw := hi / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	prec := 0
	if step < 1 {
		prec = int(math.Ceil(-math.Log10(step)))
	}
	var ticks []tick
	top := 0.0
	for v := 0.0; ; v += step {
		ticks = append(ticks, tick{v, textfmt.Group(v, prec)})
		top = v
		if v >= hi-step*1e-9 {
			break
		}
	}
	return ticks, top
}

// errTop is the highest point of a value's error bar that the axis should
// show: an error larger than the value itself (two trials at a high confidence level) is
// clipped rather than squashing every bar.
func errTop(d datum) float64 {
	if math.IsNaN(d.Err) {
		return d.Y
	}
	return d.Y + math.Min(d.Err, math.Abs(d.Y))
}

// errorBar draws a vertical error bar at x from v-e to v+e, clipped to the
// plot (bottom to top); a clipped end has no cap.
func (w *svgWriter) errorBar(x float64, d datum, y func(float64) float64, bottom, top float64) {
	if math.IsNaN(d.Err) || d.Err <= 0 {
		return
	}
	lo, hi := math.Max(d.Y-d.Err, bottom), math.Min(d.Y+d.Err, top)
	w.printf(`<line class="err" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", num(x), num(y(lo)), num(x), num(y(hi)))
	if d.Y-d.Err >= bottom {
		w.printf(`<line class="err" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", num(x-4), num(y(lo)), num(x+4), num(y(lo)))
	}
	if d.Y+d.Err <= top {
		w.printf(`<line class="err" x1="%s" y1="%s" x2="%s" y2="%s"/>`+"\n", num(x-4), num(y(hi)), num(x+4), num(y(hi)))
	}
}

// svg renders the bar chart.
func (c *barChart) svg() string {
	var w svgWriter
	w.open(c.ID, c.Title, c.XLabel, c.YLabel)
	hi := 0.0
	for _, g := range c.Values {
		for _, d := range g {
			if !math.IsNaN(d.Y) {
				hi = math.Max(hi, errTop(d))
			}
		}
	}
	ticks, top := niceTicks(hi, 5)
	y := w.yAxis(ticks, top)
	groupW := float64(plotRight-plotLeft) / float64(max(len(c.Groups), 1))
	barW := groupW * 0.8 / float64(max(len(c.Series), 1))
	for gi, g := range c.Groups {
		x0 := plotLeft + groupW*float64(gi) + groupW*0.1
		for si := range c.Series {
			d := c.Values[gi][si]
			if math.IsNaN(d.Y) {
				continue
			}
			x := x0 + barW*float64(si)
			w.printf(`<rect class="bar" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s, %s: %s</title></rect>`+"\n",
				num(x+1), num(y(d.Y)), num(math.Max(barW-2, 1)), num(y(0)-y(d.Y)), color(si),
				esc(g), esc(c.Series[si]), esc(stats.Summary{N: 2, Mean: d.Y, Err: d.Err}.String()))
			w.errorBar(x+barW/2, d, y, 0, top)
		}
		w.printf(`<text class="tick x-tick" x="%s" y="%d">%s</text>`+"\n", num(x0+groupW*0.4), plotBottom+18, esc(g))
	}
	w.legend(c.Legend, c.Series, false)
	return w.String()
}

// svg renders the line chart.
func (c *lineChart) svg() string {
	var w svgWriter
	w.open(c.ID, c.Title, c.XLabel, c.YLabel)
	xlo, xhi, hi := math.Inf(1), math.Inf(-1), 0.0
	for _, s := range c.Series {
		for _, p := range s.Points {
			xlo, xhi = math.Min(xlo, p.X), math.Max(xhi, p.X)
			hi = math.Max(hi, errTop(p))
		}
	}
	for _, l := range c.Levels {
		hi = math.Max(hi, l.Y)
	}
	for _, t := range c.XTicks {
		xlo, xhi = math.Min(xlo, t.V), math.Max(xhi, t.V)
	}
	for _, m := range c.Marks {
		xlo, xhi = math.Min(xlo, m.X), math.Max(xhi, m.X)
	}
	if math.IsInf(xlo, 0) {
		xlo, xhi = 0, 1
	}
	if xhi == xlo {
		xlo, xhi = xlo-1, xhi+1
	}
	y, bottom, top := c.yAxis(&w, hi)
	pad := 0.04 * float64(plotRight-plotLeft)
	x := func(v float64) float64 {
		return plotLeft + pad + (v-xlo)/(xhi-xlo)*(float64(plotRight-plotLeft)-2*pad)
	}
	xt := c.XTicks
	if xt == nil {
		xt = xTicks(c.Series)
	}
	for _, t := range xt {
		w.printf(`<line class="grid" x1="%s" y1="%d" x2="%s" y2="%d"/>`+"\n", num(x(t.V)), plotTop, num(x(t.V)), plotBottom)
		w.printf(`<text class="tick x-tick" x="%s" y="%d">%s</text>`+"\n", num(x(t.V)), plotBottom+18, esc(t.Label))
	}
	for _, b := range c.Bands {
		w.printf(`<rect class="%s" x="%s" y="%d" width="%s" height="%d"><title>%s</title></rect>`+"\n",
			esc(b.Class), num(x(b.X0)), plotTop, num(math.Max(x(b.X1)-x(b.X0), 0)), plotBottom-plotTop, esc(b.Title))
	}
	for i, m := range c.Marks {
		w.printf(`<line class="%s" x1="%s" y1="%d" x2="%s" y2="%d"><title>%s</title></line>`+"\n",
			esc(m.Class), num(x(m.X)), plotTop, num(x(m.X)), plotBottom, esc(m.Title))
		if m.Label != "" {
			// Staggered so that neighbouring events' labels do not overlap.
			w.printf(`<text class="%s-label" x="%s" y="%d">%s</text>`+"\n",
				esc(m.Class), num(x(m.X)+3), plotTop+10+12*(i%3), esc(m.Label))
		}
	}
	for _, l := range c.Levels {
		w.level(l, y)
	}
	names := make([]string, len(c.Series))
	for i, s := range c.Series {
		names[i] = s.Name
		var pts []string
		for _, p := range s.Points {
			pts = append(pts, num(x(p.X))+","+num(y(math.Min(p.Y, top))))
		}
		if !s.Dots {
			w.printf(`<polyline class="line" fill="none" stroke="%s" stroke-width="2"%s points="%s"><title>%s</title></polyline>`+"\n",
				color(i), dashes(i), strings.Join(pts, " "), esc(s.Name))
		}
		for _, p := range s.Points {
			w.errorBar(x(p.X), p, y, bottom, top)
			if c.Markers || s.Dots {
				w.marker(x(p.X), y(math.Min(p.Y, top)), color(i), s.Name, p)
			}
		}
	}
	w.legend(c.Legend, names, true)
	return w.String()
}

// yAxis draws the chart's y axis for values up to hi, linear from 0 or,
// with LogY, logarithmic around the positive values and levels, and
// returns the value→y mapping and the axis' bottom and top.
func (c *lineChart) yAxis(w *svgWriter, hi float64) (y func(float64) float64, bottom, top float64) {
	if !c.LogY {
		ticks, top := niceTicks(hi, 5)
		return w.yAxis(ticks, top), 0, top
	}
	lo := math.Inf(1)
	for _, s := range c.Series {
		for _, p := range s.Points {
			if p.Y > 0 {
				lo = math.Min(lo, p.Y)
			}
		}
	}
	for _, l := range c.Levels {
		lo = math.Min(lo, l.Y)
	}
	ticks, bottom, top := logTicks(lo, hi)
	return w.yAxisLog(ticks, bottom, top), bottom, top
}

// marker draws point p of a series at (cx, cy): a dot, or a ring when
// p is Hollow, with p's Title (or "series: value") as its tooltip.
func (w *svgWriter) marker(cx, cy float64, col, series string, p datum) {
	tip := esc(series) + ": " + esc(stats.Summary{N: 2, Mean: p.Y, Err: p.Err}.String())
	if p.Title != "" {
		tip = esc(p.Title)
	}
	if p.Hollow {
		w.printf(`<circle class="hollow" cx="%s" cy="%s" r="4" fill="#fff" stroke="%s" stroke-width="2"><title>%s</title></circle>`+"\n",
			num(cx), num(cy), col, tip)
		return
	}
	w.printf(`<circle cx="%s" cy="%s" r="3.5" fill="%s"><title>%s</title></circle>`+"\n", num(cx), num(cy), col, tip)
}

// level draws a horizontal reference line across the plot at l.Y, dashed
// and red, labelled just above its right end.
func (w *svgWriter) level(l level, y func(float64) float64) {
	at := y(l.Y)
	w.printf(`<line class="level" x1="%d" y1="%s" x2="%d" y2="%s" stroke="#b42318" stroke-width="1.5" stroke-dasharray="6 4"><title>%s</title></line>`+"\n",
		plotLeft, num(at), plotRight, num(at), esc(l.Label))
	w.printf(`<text class="level-label" x="%d" y="%s" text-anchor="end" font-size="12" fill="#b42318">%s</text>`+"\n",
		plotRight-4, num(at-5), esc(l.Label))
}

// logTicks returns ticks at 1, 2 and 5 × 10^k (powers of ten only when
// that would be more than maxLogTicks) from the largest such value at or
// below lo to the smallest at or above hi, and those two ends.
func logTicks(lo, hi float64) (ticks []tick, bottom, top float64) {
	if !(hi > 0) || math.IsInf(hi, 0) {
		hi = 1
	}
	if !(lo > 0) || lo > hi {
		lo = hi / 10
	}
	steps := func(mults []float64) []float64 {
		var vs []float64
		for k := math.Floor(math.Log10(lo)) - 1; k <= math.Ceil(math.Log10(hi))+1; k++ {
			for _, m := range mults {
				vs = append(vs, m*math.Pow(10, k))
			}
		}
		return vs
	}
	vs := steps([]float64{1, 2, 5})
	pick := func(vs []float64) []float64 {
		var out []float64
		for i, v := range vs {
			// The step at or below lo, every step between, the one at or above hi.
			below := i+1 < len(vs) && vs[i+1] <= lo*(1+1e-9)
			above := i > 0 && vs[i-1] >= hi*(1-1e-9)
			if !below && !above {
				out = append(out, v)
			}
		}
		return out
	}
	sel := pick(vs)
	if len(sel) > maxLogTicks {
		sel = pick(steps([]float64{1}))
	}
	for _, v := range sel {
		prec := max(0, int(-math.Floor(math.Log10(v)+1e-9)))
		ticks = append(ticks, tick{v, textfmt.Group(v, prec)})
	}
	return ticks, sel[0], sel[len(sel)-1]
}

// maxLogTicks bounds the ticks of a log axis.
const maxLogTicks = 12

// xTicks returns a tick at every distinct x of the series (matrix values
// are few and meaningful).
func xTicks(series []lineSeries) []tick {
	seen := map[float64]bool{}
	var ts []tick
	for _, s := range series {
		for _, p := range s.Points {
			if !seen[p.X] {
				seen[p.X] = true
				ts = append(ts, tick{p.X, strconv.FormatFloat(p.X, 'f', -1, 64)})
			}
		}
	}
	return ts
}
