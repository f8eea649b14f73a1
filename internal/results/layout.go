package results

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Files of a run directory. Every run writes ResultsFile and ExperimentFile;
// TableFile is the human summary; brokers started by prodlab log to
// BrokerLog(n).
const (
	ResultsFile    = "results.jsonl"   // one Record per finished trial (contract)
	ExperimentFile = "experiment.yaml" // the experiment as run, overrides applied
	TableFile      = "table.txt"       // report.Table of the run
	FindingsFile   = "findings.json"   // the answers to plan.json's comparisons, for scripts
	CapacityFile   = "capacity.json"   // the sustainable rate of each scenario of a capacity run
)

// BrokerLog is the file name of broker n's log in a run directory.
func BrokerLog(n int) string { return "broker-" + strconv.Itoa(n) + ".log" }

// RunDirTimeLayout formats the start time that begins a run directory name.
const RunDirTimeLayout = "20060102-150405"

// maxRunDirSuffix bounds the search for a free directory name.
const maxRunDirSuffix = 1000

// NewRunDir creates and returns base/<time>-<name>, time being now in its
// own location as RunDirTimeLayout. If that exists (two runs in the same
// second), it appends -2, -3, ... so a run never writes into another's
// directory. Creation with os.Mkdir is atomic, so concurrent prodlab
// processes also get distinct directories. base is created if missing. name
// must be a single path element.
func NewRunDir(base, name string, now time.Time) (string, error) {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `/\`) {
		return "", fmt.Errorf("run name %q: must be a non-empty file name without path separators", name)
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return "", fmt.Errorf("create results directory: %w", err)
	}
	stem := filepath.Join(base, now.Format(RunDirTimeLayout)+"-"+name)
	dir := stem
	for i := 2; i <= maxRunDirSuffix+1; i++ {
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			return dir, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", fmt.Errorf("create run directory: %w", err)
		}
		dir = stem + "-" + strconv.Itoa(i)
	}
	return "", fmt.Errorf("create run directory: %s and %d suffixed variants all exist", stem, maxRunDirSuffix)
}
