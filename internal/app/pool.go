package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/inputfile"
	"github.com/prodlab/prodlab/internal/results"
)

// ReadRuns reads several run directories of one experiment for one
// report: each run's records with its lives numbered after the runs
// before it (results.Record.Life), so that trials pair only within a run
// and each planned comparison is judged over the runs, each run once
// (stats.ComparePairedLives). Runs whose plans ask other questions, or at
// another level or margin, are refused, as is a run given twice or one
// without a plan: a pooled answer needs the same questions asked of
// separate lives. Settings that leave the questions alone (a --set
// workload.records) are not in the plan: where a run's experiment.yaml
// differs from the first's beyond its rounds settings, warn says where.
func ReadRuns(dirs []string, warn io.Writer) ([]results.Record, error) {
	if len(dirs) == 1 {
		return ReadRun(dirs[0], warn)
	}
	var first results.Plan
	runs := make([][]results.Record, 0, len(dirs))
	for i, dir := range dirs {
		if err := notTwice(dirs[:i], dir); err != nil {
			return nil, err
		}
		p, ok, err := results.ReadPlan(dir)
		switch {
		case err != nil:
			return nil, invalid(err)
		case !ok:
			return nil, invalid(fmt.Errorf("%s has no %s: without planned comparisons there is nothing to answer over runs", dir, results.PlanFile))
		case p.Capacity != nil || p.Advise != nil:
			return nil, invalid(fmt.Errorf("%s is a capacity or advise run: a report over several runs answers paired comparisons only; report it alone", dir))
		case i == 0:
			first = p
		case !samePlan(first, p):
			return nil, invalid(fmt.Errorf("%s planned other comparisons than %s (another experiment, other --set values, or another level or equivalence margin): a report over several runs needs the same questions in each", dir, dirs[0]))
		}
		if i > 0 {
			warnDiffer(dirs[0], dir, warn)
		}
		recs, err := ReadRun(dir, warn)
		if err != nil {
			return nil, err
		}
		runs = append(runs, recs)
	}
	return PoolLives(runs...), nil
}

// PoolLives is the records of runs in one list, each run's lives numbered
// after those of the runs before it, so that trials pair only within a
// life and each life counts once. The runs' own records are not changed.
func PoolLives(runs ...[]results.Record) []results.Record {
	var out []results.Record
	offset := 0
	for _, recs := range runs {
		lives := 0
		for _, rec := range recs {
			lives = max(lives, rec.Life+1)
			rec.Life += offset
			out = append(out, rec)
		}
		offset += lives
	}
	return out
}

// samePlan reports whether two runs asked the same questions, in any
// order, at the same level and margin. Their precision may differ: each
// run's rounds stopped on its own, and the pooled interval is computed
// anew.
func samePlan(a, b results.Plan) bool {
	return a.Level == b.Level && a.Margin == b.Margin && slices.Equal(sortedQuestions(a), sortedQuestions(b))
}

// sortedQuestions is p's comparisons in a fixed order.
func sortedQuestions(p results.Plan) []results.PlannedComparison {
	cs := slices.Clone(p.Comparisons)
	slices.SortFunc(cs, func(x, y results.PlannedComparison) int {
		return strings.Compare(x.Baseline+"\x00"+x.Candidate+"\x00"+x.Metric+"\x00"+x.Question, y.Baseline+"\x00"+y.Candidate+"\x00"+y.Metric+"\x00"+y.Question)
	})
	return cs
}

// notTwice refuses dir when it is one of before: one life counted twice
// would look like two that agree.
func notTwice(before []string, dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return invalid(fmt.Errorf("read run: %w", err))
	}
	for _, b := range before {
		if bi, err := os.Stat(b); err == nil && os.SameFile(fi, bi) {
			return invalid(errors.New(dir + " is given twice (as " + b + "): each run counts once"))
		}
	}
	return nil
}

// roundsKeys are the experiment.yaml settings that runs pooled in one
// report may differ in: how many rounds and lives each ran, and when it
// stopped.
var roundsKeys = []string{"trials:", "precision:", "budget:", "lives:", "warmup:", "warmup.max.s:"}

// warnDiffer warns when dir's experiment.yaml differs from first's in a
// line other than a rounds setting, naming the first such line.
func warnDiffer(first, dir string, warn io.Writer) {
	// never a FIFO; a file that cannot be read is refused by ReadRun
	a, errA := inputfile.ReadMax(filepath.Join(first, results.ExperimentFile), maxRunFile)
	b, errB := inputfile.ReadMax(filepath.Join(dir, results.ExperimentFile), maxRunFile)
	if errA != nil || errB != nil {
		return
	}
	la, lb := settingLines(a), settingLines(b)
	for i := range max(len(la), len(lb)) {
		x, y := lineAt(la, i), lineAt(lb, i)
		if x != y {
			fmt.Fprintf(warn, "prodlab: warning: %s's %s differs from %s's beyond its rounds settings (%q against %q): pool runs of one experiment\n",
				dir, results.ExperimentFile, first, y, x)
			return
		}
	}
}

// settingLines is an experiment.yaml's lines less its rounds settings.
func settingLines(data []byte) []string {
	var out []string
	for _, l := range strings.Split(string(data), "\n") {
		t := strings.TrimSpace(l)
		if slices.ContainsFunc(roundsKeys, func(k string) bool { return strings.HasPrefix(t, k) }) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// lineAt is lines[i], or "(end of file)" past its end.
func lineAt(lines []string, i int) string {
	if i < len(lines) {
		return strings.TrimSpace(lines[i])
	}
	return "(end of file)"
}
