package app

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// maxHistoryRuns bounds the runs of a history: the change-point scan
// costs the square of their number per series and permutation.
// maxHistoryDirs bounds the run directories read to find them.
const (
	maxHistoryRuns = 500
	maxHistoryDirs = 5000
)

// HistoryRequest names the runs of a history: run directories, or
// folders whose subdirectories are run directories, of one experiment.
type HistoryRequest struct {
	Paths []string
	// Experiment keeps the runs of that experiment only ("": the runs
	// must all be of one).
	Experiment string
	// Change tunes the change-point detection (zero: its defaults).
	Change stats.ChangeConfig
}

// History reads the runs req names, orders them by their start, and lines
// them up (report.NewHistory). Runs of different experiments, a path that
// holds no run, and fewer than two runs are input errors; a run found in
// a folder that cannot be read (one that stopped before its first trial)
// is skipped with a warning, so one broken run does not hide the others.
func History(req HistoryRequest, warn io.Writer) (*report.History, error) {
	dirs, err := historyDirs(req.Paths)
	if err != nil {
		return nil, err
	}
	runs := make([]report.HistoryRun, 0, len(dirs))
	for _, d := range dirs {
		r, err := readHistoryRun(d.path, warn)
		switch {
		case err != nil && d.found:
			fmt.Fprintf(warn, "prodlab: history: skipping %s: %v\n", d.path, err)
			continue
		case err != nil:
			return nil, err
		}
		if req.Experiment == "" || r.Records[0].Experiment == req.Experiment {
			runs = append(runs, r)
		}
	}
	if err := oneExperiment(runs, req.Experiment); err != nil {
		return nil, err
	}
	slices.SortStableFunc(runs, func(a, b report.HistoryRun) int { return strings.Compare(startOf(a), startOf(b)) })
	return report.NewHistory(runs, req.Change)
}

// historyDir is a run directory of a history; found: it was found in a
// folder rather than named.
type historyDir struct {
	path  string
	found bool
}

// historyDirs expands paths into run directories: a directory holding
// results.jsonl is one; any other directory stands for its
// subdirectories that hold one, in name order. A directory given twice
// (under any name) is refused.
func historyDirs(paths []string) ([]historyDir, error) {
	var dirs []historyDir
	for _, p := range paths {
		st, err := os.Stat(p)
		switch {
		case err != nil:
			return nil, invalid(fmt.Errorf("history: %w", err))
		case !st.IsDir():
			return nil, invalid(fmt.Errorf("history: %s is a file, not a run directory or a folder of them", p))
		case isRunDir(p):
			dirs = append(dirs, historyDir{path: p})
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, invalid(fmt.Errorf("history: %w", err))
		}
		n := len(dirs)
		for _, e := range entries {
			if sub := filepath.Join(p, e.Name()); e.IsDir() && isRunDir(sub) {
				dirs = append(dirs, historyDir{path: sub, found: true})
			}
		}
		if len(dirs) == n {
			return nil, invalid(fmt.Errorf("history: %s holds no run directory (none of its subdirectories has %s)", p, results.ResultsFile))
		}
		if len(dirs) > maxHistoryDirs {
			break
		}
	}
	if len(dirs) > maxHistoryDirs {
		return nil, invalid(fmt.Errorf("history reads at most %d run directories, got more: give the newest ones", maxHistoryDirs))
	}
	seen := map[[2]uint64]string{} // device and inode → the path first given
	for _, d := range dirs {
		st, err := os.Stat(d.path)
		if err != nil {
			return nil, invalid(fmt.Errorf("history: %w", err))
		}
		if sys, ok := st.Sys().(*syscall.Stat_t); ok {
			key := [2]uint64{uint64(sys.Dev), sys.Ino} //nolint:unconvert // Dev's type differs by platform
			if first, twice := seen[key]; twice {
				return nil, invalid(fmt.Errorf("%s is given twice (as %s): each run counts once", d.path, first))
			}
			seen[key] = d.path
		}
	}
	return dirs, nil
}

// isRunDir reports whether dir holds a results file.
func isRunDir(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, results.ResultsFile))
	return err == nil && st.Mode().IsRegular()
}

// readHistoryRun reads one run: its records (leniently, as report does),
// plan, environment and cluster layout.
func readHistoryRun(dir string, warn io.Writer) (report.HistoryRun, error) {
	recs, err := ReadRun(dir, warn)
	if err != nil {
		return report.HistoryRun{}, err
	}
	r := report.HistoryRun{Dir: dir, Records: recs}
	if p, ok, err := results.ReadPlan(dir); err != nil {
		return r, invalid(err)
	} else if ok {
		r.Plan = &p
	}
	env, _, err := results.ReadEnvironment(dir)
	if err != nil {
		return r, invalid(err)
	}
	r.Env = env
	if e, err := expfile.Load(filepath.Join(dir, results.ExperimentFile), nil); err == nil {
		r.Layout = fmt.Sprintf("%d brokers, %d controllers", e.Cluster.Brokers, e.Cluster.Controllers)
	}
	return r, nil
}

// oneExperiment refuses runs of different experiments (their series
// would not be one figure over time), naming them, and fewer than two
// runs or more than maxHistoryRuns.
func oneExperiment(runs []report.HistoryRun, want string) error {
	var names []string
	for _, r := range runs {
		if n := r.Records[0].Experiment; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	switch {
	case len(names) > 1:
		slices.Sort(names)
		return invalid(fmt.Errorf("history: the runs are of %d experiments (%s): a history is runs of one; choose it with --experiment", len(names), strings.Join(names, ", ")))
	case len(runs) < 2 && want != "":
		return invalid(fmt.Errorf("history needs at least two runs of experiment %q, found %d", want, len(runs)))
	case len(runs) < 2:
		return invalid(errors.New("history needs at least two runs of one experiment: give their run directories, or a folder that holds them"))
	case len(runs) > maxHistoryRuns:
		return invalid(fmt.Errorf("history lines up at most %d runs, got %d: give the newest ones", maxHistoryRuns, len(runs)))
	}
	return nil
}

// startOf is when run r started: its environment's time, else its first
// record's, else its directory's name (which begins with the time).
func startOf(r report.HistoryRun) string {
	switch {
	case r.Env.StartedAt != "":
		return r.Env.StartedAt
	case r.Records[0].StartedAt != "":
		return r.Records[0].StartedAt
	}
	return filepath.Base(r.Dir)
}
