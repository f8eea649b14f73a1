package report

import (
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// Matrix keys that select charts, in the spellings experiments and
// records use (full key and the short form).
var (
	codecKeys    = []string{kafkaconf.CompressionType, "producer." + kafkaconf.CompressionType}
	inFlightKeys = []string{kafkaconf.MaxInFlight, "producer." + kafkaconf.MaxInFlight}
	rttKeys      = []string{"network.rtt.ms", "rtt.ms"}
	rfKeys       = []string{"topic.replication.factor", "replication.factor"}
)

// chart is a rendered chart with the name tests and the page refer to it
// by, and the note the page shows under it, if any.
type chart struct {
	ID, SVG string
	Caption string
}

// percentileTicks are the latency chart's x ticks: x = log10(1/(1-p)).
var percentileTicks = []tick{{0, "0%"}, {1, "90%"}, {2, "99%"}, {3, "99.9%"}, {4, "99.99%"}, {5, "99.999%"}}

// charts picks and renders the charts the scenarios call for: throughput
// always; latency percentile curves when merged histograms exist; disk and
// compression ratio per codec when compression.type varies; throughput
// against max.in.flight.requests.per.connection (a line per RTT) when that
// varies; throughput and p99 latency against replication factor when that
// varies. Scenarios without a successful trial are left out.
func charts(all []summary.ScenarioStats) []chart {
	var scs []*summary.ScenarioStats
	for i := range all {
		if all[i].Trials > 0 {
			scs = append(scs, &all[i])
		}
	}
	keys := matrixKeys(all)
	var out []chart
	add := func(id, svg string) { out = append(out, chart{ID: id, SVG: svg}) }

	groupKey := ""
	if len(keys) > 0 {
		groupKey = keys[0]
	}
	tp := groupedBars(scs, groupKey, func(s *summary.ScenarioStats) stats.Summary { return s.Throughput })
	tp.ID, tp.Title, tp.YLabel = "chart-throughput", "Throughput per scenario (mean ± "+stats.Percent(stats.DefaultConfidence)+" CI)", "throughput (records/s)"
	tp.XLabel = axisKey(groupKey, "scenario")
	add(tp.ID, tp.svg())

	if lc := latencyCurves(scs); lc != nil {
		add(lc.ID, lc.svg())
	}
	if k := varying(scs, keys, codecKeys); k != "" {
		d := groupedBars(scs, k, func(s *summary.ScenarioStats) stats.Summary { return scaled(s.DiskBytes, 1.0/(1<<20)) })
		d.ID, d.Title, d.XLabel, d.YLabel = "chart-disk", "Size on disk per codec (one replica per partition)", k, "size on disk (MiB)"
		add(d.ID, d.svg())
		r := groupedBars(scs, k, func(s *summary.ScenarioStats) stats.Summary { return s.Ratio })
		r.ID, r.Title, r.XLabel, r.YLabel = "chart-ratio", "Compression ratio per codec (uncompressed ÷ compressed)", k, "compression ratio (×)"
		add(r.ID, r.svg())
	}
	if k := varying(scs, keys, inFlightKeys); k != "" {
		lc := linesAgainst(scs, k, func(s *summary.ScenarioStats) stats.Summary { return s.Throughput })
		lc.ID, lc.Title, lc.XLabel, lc.YLabel = "chart-inflight", "Throughput against requests in flight", k+" (requests)", "throughput (records/s)"
		if rk := firstKey(keys, rttKeys); rk != "" && len(keys) == 2 {
			lc.Title += ", one line per " + rk
		}
		add(lc.ID, lc.svg())
	}
	if k := varying(scs, keys, rfKeys); k != "" {
		t := linesAgainst(scs, k, func(s *summary.ScenarioStats) stats.Summary { return s.Throughput })
		t.ID, t.Title, t.XLabel, t.YLabel = "chart-rf-throughput", "Throughput against replication factor", k+" (replicas)", "throughput (records/s)"
		add(t.ID, t.svg())
		l := linesAgainst(scs, k, func(s *summary.ScenarioStats) stats.Summary {
			p := s.P99
			p.Mean = s.Latency.P99 // merged, with the per-trial error
			return p
		})
		l.ID, l.Title, l.XLabel, l.YLabel = "chart-rf-latency", "p99 latency against replication factor", k+" (replicas)", "p99 latency (ms)"
		add(l.ID, l.svg())
	}
	return out
}

// axisKey names an axis after a matrix key, or def without one.
func axisKey(k, def string) string {
	if k == "" {
		return def
	}
	return k
}

// scaled returns s in other units.
func scaled(s stats.Summary, f float64) stats.Summary {
	s.Mean *= f
	s.SD *= f
	s.Err *= f
	return s
}

// datumOf is a Summary as a plotted value.
func datumOf(x float64, s stats.Summary) datum {
	return datum{X: x, Y: s.Mean, Err: s.Err}
}

// restLabel labels a scenario in a legend by its matrix values other than
// except, joined by " / " ("all" when there are none), and returns the
// keys they are values of, which title the legend: long property names
// would not fit in every entry.
func restLabel(s *summary.ScenarioStats, except string) (label string, keys []string) {
	var parts []string
	for _, k := range s.Keys {
		if k != except {
			parts = append(parts, formatValue(s.Values[k]))
			keys = append(keys, k)
		}
	}
	if len(parts) == 0 {
		return "all", nil
	}
	return strings.Join(parts, " / "), keys
}

// legendTitle is the legend title for keys: one line per key, " / "
// separators as in the entries.
func legendTitle(keys []string) []string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = k
		if i < len(keys)-1 {
			out[i] += " /"
		}
	}
	return out
}

// groupedBars builds a bar chart with one group per value of key (in order
// of appearance) and one series per combination of the other matrix
// values; with no key, one group holding every scenario.
func groupedBars(scs []*summary.ScenarioStats, key string, f func(*summary.ScenarioStats) stats.Summary) *barChart {
	c := &barChart{}
	gi, si := map[string]int{}, map[string]int{}
	type cell struct{ g, s int }
	vals := map[cell]datum{}
	for _, s := range scs {
		g := "all"
		if key != "" {
			g = formatValue(s.Values[key])
		}
		name, keys := restLabel(s, key)
		if c.Legend == nil {
			c.Legend = legendTitle(keys)
		}
		if _, ok := gi[g]; !ok {
			gi[g] = len(c.Groups)
			c.Groups = append(c.Groups, g)
		}
		if _, ok := si[name]; !ok {
			si[name] = len(c.Series)
			c.Series = append(c.Series, name)
		}
		vals[cell{gi[g], si[name]}] = datumOf(0, f(s))
	}
	c.Values = make([][]datum, len(c.Groups))
	for g := range c.Values {
		c.Values[g] = make([]datum, len(c.Series))
		for s := range c.Values[g] {
			d, ok := vals[cell{g, s}]
			if !ok {
				d = datum{Y: math.NaN(), Err: math.NaN()}
			}
			c.Values[g][s] = d
		}
	}
	return c
}

// linesAgainst builds a line chart of f against the numeric matrix key
// key, one line per combination of the other matrix values.
func linesAgainst(scs []*summary.ScenarioStats, key string, f func(*summary.ScenarioStats) stats.Summary) *lineChart {
	c := &lineChart{Markers: true}
	idx := map[string]int{}
	for _, s := range scs {
		x, ok := toFloat(s.Values[key])
		if !ok {
			continue
		}
		name, keys := restLabel(s, key)
		if c.Legend == nil {
			c.Legend = legendTitle(keys)
		}
		if _, seen := idx[name]; !seen {
			idx[name] = len(c.Series)
			c.Series = append(c.Series, lineSeries{Name: name})
		}
		ls := &c.Series[idx[name]]
		ls.Points = append(ls.Points, datumOf(x, f(s)))
	}
	for i := range c.Series {
		sort.Slice(c.Series[i].Points, func(a, b int) bool { return c.Series[i].Points[a].X < c.Series[i].Points[b].X })
	}
	return c
}

// latencyCurves plots each scenario's merged latency histogram as
// HdrHistogram's percentile distribution: latency against percentile on a
// 1/(1-p) log scale, up to the percentile the record count resolves. Nil
// when no scenario has histograms.
func latencyCurves(scs []*summary.ScenarioStats) *lineChart {
	c := &lineChart{ID: "chart-latency", Title: "Latency by percentile (merged histograms of all trials)",
		XLabel: "percentile (log scale of 1/(1−p))", YLabel: "send → ack latency (ms)"}
	maxX := 0.0
	for _, s := range scs {
		if s.Hist == nil || s.Hist.TotalCount() == 0 {
			continue
		}
		// Beyond 1/(1-p) = count every percentile is the maximum.
		top := math.Min(5, math.Log10(float64(s.Hist.TotalCount())))
		maxX = math.Max(maxX, top)
		var pts []datum
		for x := 0.0; x < top+1e-9; x += 0.05 {
			p := 100 * (1 - math.Pow(10, -x))
			pts = append(pts, datum{X: x, Y: float64(s.Hist.ValueAtQuantile(p)) / 1000, Err: math.NaN()})
		}
		name, keys := restLabel(s, "")
		if c.Legend == nil {
			c.Legend = legendTitle(keys)
		}
		c.Series = append(c.Series, lineSeries{Name: name, Points: pts})
	}
	if c.Series == nil {
		return nil
	}
	for _, t := range percentileTicks {
		if t.V <= math.Ceil(maxX) {
			c.XTicks = append(c.XTicks, t)
		}
	}
	return c
}

// firstKey returns the first of candidates among keys, or "".
func firstKey(keys, candidates []string) string {
	for _, k := range keys {
		for _, c := range candidates {
			if k == c {
				return k
			}
		}
	}
	return ""
}

// varying returns the first of candidates that is a matrix key taking at
// least two values among scs, or "".
func varying(scs []*summary.ScenarioStats, keys, candidates []string) string {
	for _, k := range keys {
		for _, c := range candidates {
			if k != c {
				continue
			}
			seen := map[string]bool{}
			for _, s := range scs {
				if v, ok := s.Values[k]; ok {
					seen[formatValue(v)] = true
				}
			}
			if len(seen) > 1 {
				return k
			}
		}
	}
	return ""
}

// toFloat converts a matrix value to a number: JSON numbers, Go integers,
// or numeric strings.
func toFloat(v any) (float64, bool) {
	switch v := v.(type) {
	case float64:
		return v, true
	case int:
		return float64(v), true
	case int64:
		return float64(v), true
	case string:
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil
	}
	return 0, false
}
