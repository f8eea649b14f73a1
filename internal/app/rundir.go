package app

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/inputfile"
	"github.com/prodlab/prodlab/internal/results"
)

// maxRunFile bounds the files of a run directory read whole
// (experiment.yaml): far above what a run writes.
const maxRunFile = 64 << 20

// prepareRunDir returns the run directory for exp, created and writable,
// before anything starts. Without --out it is a fresh
// results/<time>-<name>. An --out that cannot be created or written is a
// usage error (exit 2). An --out that already holds a run is refused unless
// resume is set, so two runs never mix in one results.jsonl; with resume it
// must hold the same experiment.
func prepareRunDir(out string, exp *expfile.Experiment, resume bool) (string, error) {
	if err := checkRunDir(out, exp, resume); err != nil {
		return "", err
	}
	if out == "" {
		dir, err := results.NewRunDir("results", exp.Name, time.Now())
		if err != nil {
			return "", invalid(err)
		}
		return dir, nil
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return "", invalid(fmt.Errorf("--out %s: cannot create the run directory: %w", out, err))
	}
	if err := probeWritable(out); err != nil {
		return "", invalid(fmt.Errorf("--out %s: cannot write in the run directory: %w", out, err))
	}
	return out, nil
}

// checkRunDir refuses an --out that holds a run without --resume, or
// holds none (or another experiment) with it. It creates nothing, so that
// PlanRun (and so --dry-run) refuses the same directories a run would.
func checkRunDir(out string, exp *expfile.Experiment, resume bool) error {
	if out == "" {
		if resume {
			return invalid(errors.New("--resume continues the run in --out DIR: name the directory"))
		}
		return nil
	}
	if err := checkDirPath(out); err != nil {
		return invalid(err)
	}
	held := holdsRun(out)
	switch {
	case held && !resume:
		return invalid(fmt.Errorf("--out %s already holds a run (%s): choose another directory, or add --resume to continue that run", out, results.ExperimentFile))
	case !held && resume:
		return invalid(fmt.Errorf("--resume: %s holds no run to continue (no %s)", out, results.ExperimentFile))
	case held:
		if err := sameExperiment(out, exp); err != nil {
			return invalid(err)
		}
		if exp.ClusterLives() > 1 {
			return invalid(fmt.Errorf("--resume cannot continue a run of lives: %s yet (each life numbers its rounds from 0): start it again in another --out", exp.LivesText()))
		}
	}
	return nil
}

// checkDirPath refuses an --out that names a file, or lies under one: it
// could never become the run directory, and --dry-run must say so as
// the run would. What does not exist yet is created by the run.
func checkDirPath(out string) error {
	for p := filepath.Clean(out); ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		switch {
		case err == nil && !st.IsDir() && p == filepath.Clean(out):
			return fmt.Errorf("--out %s is a file, not a directory: name a directory (created if missing)", out)
		case err == nil && !st.IsDir():
			return fmt.Errorf("--out %s lies under %s, which is a file, not a directory: name a directory (created if missing)", out, p)
		case err == nil || p == filepath.Dir(p):
			return nil
		}
	}
}

// holdsRun reports whether dir already holds a run's files.
func holdsRun(dir string) bool {
	for _, f := range []string{results.ExperimentFile, results.ResultsFile} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	return false
}

// sameExperiment checks that the run in dir was of exp as now resolved:
// resuming must not append another experiment's trials.
func sameExperiment(dir string, exp *expfile.Experiment) error {
	saved, err := inputfile.ReadMax(filepath.Join(dir, results.ExperimentFile), maxRunFile) // never a FIFO
	if err != nil {
		return fmt.Errorf("--resume: %w", err)
	}
	now, err := exp.YAML()
	if err != nil {
		return err
	}
	if !bytes.Equal(saved, now) {
		return fmt.Errorf("--resume: %s holds another experiment than %s with these --set values (%s): resume with the same experiment and settings, or choose another --out",
			dir, exp.Name, firstDifference(filepath.Join(dir, results.ExperimentFile), saved, now))
	}
	return nil
}

// firstDifference names the first line where the saved experiment (file)
// and the one given now differ, so the user sees which setting changed.
func firstDifference(file string, saved, now []byte) string {
	a, b := strings.Split(string(saved), "\n"), strings.Split(string(now), "\n")
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return fmt.Sprintf("%s:%d has %q, this run %q", file, i+1, strings.TrimSpace(x), strings.TrimSpace(y))
		}
	}
	return file + " differs"
}

// probeWritable creates and removes a file in dir, so that a read-only
// directory is refused before a cluster starts rather than at the first
// write.
func probeWritable(dir string) error {
	f, err := os.CreateTemp(dir, ".prodlab-probe-*")
	if err != nil {
		return err
	}
	name := f.Name()
	cerr := f.Close()
	if rerr := os.Remove(name); rerr != nil && !errors.Is(rerr, fs.ErrNotExist) {
		return rerr
	}
	return cerr
}
