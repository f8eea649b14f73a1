package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/app"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// compareFlags are the options of prodlab compare.
type compareFlags struct {
	scenarios   bool
	unpaired    bool
	format      string
	confidence  float64
	equivalence float64
}

func newCompareCmd() *cobra.Command {
	f := &compareFlags{}
	c := &cobra.Command{
		Use:   "compare RUN_A RUN_B | compare RUN_DIR --scenarios ID_A ID_B",
		Short: "Compare two runs, or two scenarios of one run, and say whether a difference is real",
		Long: `Compare B against A, metric by metric: throughput (msg/s and MB/s), latency
p50, p99 and p99.9, and bytes on disk. Each side shows its mean over its
successful, non-warm-up trials ± the 95 % confidence half-width (Student's
t), then B's relative difference from A, and one
of four verdicts:

  faster by X % [lo, hi]          the interval of the difference excludes 0
  slower by X % [lo, hi]          (lower / higher for latency and disk)
  equivalent within ±m %          two one-sided tests at --equivalence m: the
                                  difference is surely smaller than the margin
  inconclusive: [lo, hi] is wider than ±m %; about N more rounds would decide it

"No significant difference" is never a verdict: an interval too wide to tell
1 % from 100 % says inconclusive and how many more rounds would decide.

Latency figures here are per-trial percentiles averaged over trials (the
spread between trials is what the test needs), so they can differ slightly
from the merged-histogram percentiles of 'prodlab report'.

With two run directories, every scenario ID present in both is compared
with Welch's unequal-variances t-test. With --scenarios, the two scenarios
(IDs as in results.jsonl, or labels such as "linger.ms=5
compression.type=zstd") of one run are compared, and their trials are
paired by round: the lab runs trial i of every scenario back to back in
round i, so each metric is tested with a paired t-test on the per-round log
ratios B/A, which cancels whatever moved both trials of a round (a busy
neighbour, a warming JIT). --unpaired uses Welch's test there too.
A verdict needs at least two trials on each side; trials: auto in the
experiment adds rounds until the intervals are narrow enough.`,
		Example: `  prodlab compare results/monday-batching results/tuesday-batching
  prodlab compare results/20261122-190000-batching --scenarios linger.ms=0,compression.type=none linger.ms=5,compression.type=zstd
  prodlab compare results/20261122-190000-proxy-cost --scenarios network.proxy=false network.proxy=true --format json`,
		Args: argsUsage(cobra.RangeArgs(2, 3)),
		RunE: func(c *cobra.Command, args []string) error {
			if !(f.confidence > 0.5 && f.confidence < 1) {
				return usage(fmt.Errorf("--confidence must be in (0.5, 1), got %g", f.confidence))
			}
			if !(f.equivalence > 0 && f.equivalence < 1) {
				return usage(fmt.Errorf("--equivalence must be in (0, 1), got %g", f.equivalence))
			}
			if f.format != "table" && f.format != "json" {
				return usage(fmt.Errorf("unknown --format %q for compare: use table or json", f.format))
			}
			pairs, err := comparePairs(args, f.scenarios, c.ErrOrStderr())
			if err != nil {
				return err
			}
			for i := range pairs {
				pairs[i].level, pairs[i].margin = f.confidence, f.equivalence
			}
			if f.scenarios && !f.unpaired {
				for i := range pairs {
					pairs[i].paired = true
				}
			}
			if f.format == "json" {
				return writeComparisonJSON(c.OutOrStdout(), pairs)
			}
			return writeComparison(c.OutOrStdout(), pairs)
		},
	}
	c.Flags().BoolVar(&f.scenarios, "scenarios", false, "compare two scenarios of one run: RUN_DIR --scenarios ID_A ID_B")
	c.Flags().BoolVar(&f.unpaired, "unpaired", false, "with --scenarios, use Welch's test instead of pairing trials by round")
	c.Flags().StringVar(&f.format, "format", "table", "output format: table or json (for scripts)")
	c.Flags().Float64Var(&f.confidence, "confidence", stats.DefaultConfidence, "confidence level of intervals and verdicts")
	c.Flags().Float64Var(&f.equivalence, "equivalence", stats.DefaultMargin, "equivalence margin, relative (0.05 = ±5 %)")
	return c
}

// comparePair is one comparison: scenario a against scenario b.
type comparePair struct {
	title string
	a, b  summary.ScenarioStats
	// aName and bName say where each side comes from.
	aName, bName string
	// paired: a and b are scenarios of one run, their trials paired by round.
	paired bool
	// level and margin are the verdicts' confidence level and equivalence
	// margin.
	level, margin float64
}

// comparePairs reads the runs named by args and pairs up the scenarios to
// compare, warning on warn of each results line it skips. Wrong argument
// counts and unknown scenarios are usage errors.
func comparePairs(args []string, scenarios bool, warn io.Writer) ([]comparePair, error) {
	if scenarios {
		if len(args) != 3 {
			return nil, usage(errors.New("--scenarios takes one run directory and two scenario IDs: compare RUN_DIR --scenarios ID_A ID_B"))
		}
		scs, err := readStats(args[0], warn)
		if err != nil {
			return nil, err
		}
		a, err := findScenario(scs, args[1], args[0])
		if err != nil {
			return nil, err
		}
		b, err := findScenario(scs, args[2], args[0])
		if err != nil {
			return nil, err
		}
		return []comparePair{{title: filepath.Base(args[0]), a: a, b: b, aName: a.ID, bName: b.ID}}, nil
	}
	if len(args) != 2 {
		return nil, usage(errors.New("compare takes two run directories (or RUN_DIR --scenarios ID_A ID_B)"))
	}
	as, err := readStats(args[0], warn)
	if err != nil {
		return nil, err
	}
	bs, err := readStats(args[1], warn)
	if err != nil {
		return nil, err
	}
	byID := map[string]summary.ScenarioStats{}
	for _, b := range bs {
		byID[b.ID] = b
	}
	var pairs []comparePair
	for _, a := range as {
		if b, ok := byID[a.ID]; ok {
			pairs = append(pairs, comparePair{title: a.ID, a: a, b: b, aName: filepath.Base(args[0]), bName: filepath.Base(args[1])})
		}
	}
	if len(pairs) == 0 {
		return nil, usage(fmt.Errorf("%s and %s have no scenario ID in common", args[0], args[1]))
	}
	return pairs, nil
}

// readStats reads a run directory's results (leniently, warning on warn of
// each line it skips; see readRun) and summarises its scenarios.
func readStats(dir string, warn io.Writer) ([]summary.ScenarioStats, error) {
	recs, err := app.ReadRun(dir, warn)
	if err != nil {
		return nil, err
	}
	scs, err := summary.ByScenario(recs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	return scs, nil
}

// findScenario returns the scenario of scs whose ID is id, or whose
// "k=v k=v" label is, listing the IDs when none matches.
func findScenario(scs []summary.ScenarioStats, id, dir string) (summary.ScenarioStats, error) {
	ids := make([]string, len(scs))
	for i, s := range scs {
		if s.ID == id || strings.ReplaceAll(s.ID, ",", " ") == id {
			return s, nil
		}
		ids[i] = s.ID
	}
	return summary.ScenarioStats{}, usage(fmt.Errorf("no scenario %q in %s; scenarios: %s", id, dir, strings.Join(ids, "  ")))
}

// writeComparison prints one table per pair: each metric's A and B
// figures, B's relative difference and the verdict.
func writeComparison(w io.Writer, pairs []comparePair) error {
	tw := tabwriter.NewWriter(w, 0, 8, 2, ' ', 0)
	for i, p := range pairs {
		if i > 0 {
			fmt.Fprintln(tw)
		}
		how := ""
		if p.paired {
			xs, _ := summary.Paired(&p.a, &p.b, summary.Metrics[0])
			how = fmt.Sprintf(", paired by round (%d pairs)", len(xs))
		}
		fmt.Fprintf(tw, "%s\n  A = %s (%d trials), B = %s (%d trials); B vs A at %s%s\n",
			p.title, p.aName, p.a.Trials, p.bName, p.b.Trials, stats.Percent(p.level), how)
		fmt.Fprintln(tw, "  METRIC\tA\tB\tB vs A\tVERDICT")
		for _, m := range p.metrics() {
			a, b, v := p.compare(m)
			fmt.Fprintf(tw, "  %s (%s)\t%s\t%s\t%s\t%s\n", m.Name, m.Unit, a, b, relDiff(v), v.Text)
		}
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}

// metrics are the metrics the pair is compared on: every registered one
// that either side measured (the always-present figures, and CPU or
// intended-send-time latency when the trials have them).
func (p *comparePair) metrics() []summary.Metric {
	var out []summary.Metric
	for _, m := range summary.Metrics {
		if m.Of != nil || m.Summary(&p.a).N > 0 || m.Summary(&p.b).N > 0 {
			out = append(out, m)
		}
	}
	return out
}

// compare tests metric m of the pair, paired by round or with Welch's test.
func (p *comparePair) compare(m summary.Metric) (a, b stats.Summary, v stats.Verdict) {
	a, b = m.Summary(&p.a), m.Summary(&p.b)
	return a, b, summary.Judge(&p.a, &p.b, m, p.paired, stats.Options{Level: p.level, Margin: p.margin})
}

// comparisonJSON is one pair in compare --format json.
type comparisonJSON struct {
	Title   string       `json:"title"`
	A       string       `json:"a"`
	B       string       `json:"b"`
	Paired  bool         `json:"paired"`
	Metrics []metricJSON `json:"metrics"`
}

// metricJSON is one metric of a comparison: both sides and the verdict.
type metricJSON struct {
	Name    string        `json:"name"`
	Unit    string        `json:"unit"`
	A       stats.Summary `json:"a"`
	B       stats.Summary `json:"b"`
	Verdict stats.Verdict `json:"verdict"`
}

// writeComparisonJSON prints the comparisons as a JSON array, NaN as null.
func writeComparisonJSON(w io.Writer, pairs []comparePair) error {
	out := make([]comparisonJSON, 0, len(pairs))
	for i := range pairs {
		p := &pairs[i]
		c := comparisonJSON{Title: p.title, A: p.aName, B: p.bName, Paired: p.paired}
		for _, m := range p.metrics() {
			a, b, v := p.compare(m)
			c.Metrics = append(c.Metrics, metricJSON{Name: m.Name, Unit: m.Unit, A: a, B: b, Verdict: v})
		}
		out = append(out, c)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}

// relDiff renders a verdict's relative difference with its interval:
// "+12.3 % [+8.1 %, +16.4 %]".
func relDiff(v stats.Verdict) string {
	if math.IsNaN(v.Diff) {
		return "-"
	}
	s := fmt.Sprintf("%+.1f %%", v.Diff*100)
	if !math.IsNaN(v.Lo) && !math.IsNaN(v.Hi) {
		s += fmt.Sprintf(" [%+.1f %%, %+.1f %%]", v.Lo*100, v.Hi*100)
	}
	return s
}
