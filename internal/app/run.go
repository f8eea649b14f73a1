package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/inputfile"
	"github.com/prodlab/prodlab/internal/lab"
	"github.com/prodlab/prodlab/internal/live"
	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/secret"
)

// RunRequest asks for an experiment run: a built-in name or a YAML file,
// with --set style overrides, on an embedded cluster or Bootstrap's.
type RunRequest struct {
	Experiment string
	Sets       []string
	// Bootstrap is "HOST:PORT[,HOST:PORT]" of the user's cluster; "" starts
	// embedded ones.
	Bootstrap string
	// Out is the run directory ("": a fresh results/<time>-<name>); Resume
	// continues the run already in it.
	Out        string
	Resume     bool
	KeepTopics bool
	// Version is prodlab's, recorded with the results.
	Version string
	// OnEvent, when set, sees every trial start, progress update, record
	// and log line as the run goes (a live view).
	OnEvent func(lab.Event)
	// Live, when set, serves the run's live page on that address
	// (DefaultLiveAddr: loopback, a free port), said on the log.
	Live string
	// Advise asks for advice (`prodlab advise`): the experiment must have
	// an advise: section.
	Advise bool
	// Current is advise's --current file ("": none), set as
	// advise.current once the experiment is known to have an advise:
	// section (the key alone would make one of the default space).
	Current string
}

// DefaultLiveAddr is where --live alone serves the page: loopback, a free
// port.
const DefaultLiveAddr = live.DefaultAddr

// Plan is a checked run: everything that can be refused was refused
// (InputError) before anything starts.
type Plan struct {
	Exp       *expfile.Experiment
	Scenarios []expfile.Scenario
	// Bootstrap is the user's cluster; nil: embedded.
	Bootstrap []string
	fleets    lab.Fleets
	req       RunRequest
}

// PlanRun loads, expands and checks the experiment and the request, and
// resolves the Kafka and client versions it names.
func PlanRun(ctx context.Context, req RunRequest) (*Plan, error) {
	exp, err := loadExperiment(req)
	if err != nil {
		return nil, err
	}
	rememberSecrets(req, exp.Producer)
	scs, err := lab.Plan(exp)
	if err != nil {
		return nil, invalid(err)
	}
	for _, sc := range scs { // a matrix axis's or an advise candidate's values
		secret.Remember(secret.Values(sc.Exp.Producer)...)
	}
	if err := checkRunDir(req.Out, exp, req.Resume); err != nil {
		return nil, err
	}
	if err := maven.CheckCacheDir(); err != nil {
		return nil, invalid(err)
	}
	if req.Live != "" {
		if err := live.CheckAddr(req.Live); err != nil {
			return nil, invalid(fmt.Errorf("--live: %w", err))
		}
	}
	p := &Plan{Exp: exp, Scenarios: scs, req: req}
	if req.Bootstrap != "" {
		if p.Bootstrap, err = ParseBootstrap(req.Bootstrap); err != nil {
			return nil, invalid(fmt.Errorf("--bootstrap: %w", err))
		}
		if err := lab.CheckExternal(scs); err != nil {
			return nil, invalid(err)
		}
	}
	if err := lab.Preflight(ctx, scs, p.Bootstrap != nil, WorkerJar()); err != nil {
		return nil, invalid(err)
	}
	if p.fleets, err = lab.PlanTrogdor(ctx, scs, p.Bootstrap); err != nil {
		return nil, invalid(err)
	}
	if err := checkWorkerJar(scs, WorkerJar()); err != nil {
		return nil, err
	}
	return p, nil
}

// rememberSecrets has the process scrub every secret value of a run's
// inputs from all it prints and writes (secret.Remember): those of the
// experiment's producer settings, of the worker's JVM options and of the
// addresses given; PlanRun adds each scenario's settings once expanded.
func rememberSecrets(req RunRequest, producer map[string]string) {
	secret.Remember(secret.Values(producer)...)
	secret.Remember(secret.JVMOptValues(driver.WorkerJVMOpts())...)
	secret.Remember(secret.UserinfoPasswords(req.Bootstrap)...)
	for _, set := range req.Sets {
		secret.Remember(secret.UserinfoPasswords(set)...)
	}
}

// loadExperiment loads the request's experiment with its --set values;
// for advice, it must have an advise: section before --current is added
// (advise.current alone would search the default space).
func loadExperiment(req RunRequest) (*expfile.Experiment, error) {
	exp, err := expfile.Load(req.Experiment, req.Sets)
	if err != nil {
		return nil, invalid(err)
	}
	if err := noSecretInSpace(exp); err != nil {
		return nil, invalid(err)
	}
	if req.Advise && !exp.Mode().Advises() {
		return nil, invalid(fmt.Errorf("%s has no advise: section: add one (docs/advice.md) naming the SLO and the settings to search, e.g.\n  advise:\n    slo: {p99.ms: 50}\n    space: {linger.ms: [0, 5, 20], batch.size: [16384, 65536]}", req.Experiment))
	}
	if req.Current == "" {
		return exp, nil
	}
	if exp, err = expfile.Load(req.Experiment, append(slices.Clip(req.Sets), "advise.current="+req.Current)); err != nil {
		return nil, invalid(err)
	}
	return exp, nil
}

// noSecretInSpace refuses an advise.space axis of a secret
// (sasl.jaas.config, a password): each candidate is named by its
// settings, and that name is printed and saved (the dry-run's table,
// results.jsonl, plan.json, the report), so a secret there would be
// shown; nor is a credential a tuning choice. The message never shows
// the values.
func noSecretInSpace(exp *expfile.Experiment) error {
	where := exp.File
	if where == "" {
		where = exp.Name
	}
	for _, ax := range exp.Advise.Space {
		if secret.IsKey(ax.Key) {
			return fmt.Errorf("%s: advise.space.%s holds a secret: the search compares producer tuning, and each candidate's settings are shown and saved; set security in cluster.security (or producer:, which is kept out of every table), and drop %s from the space",
				where, ax.Key, ax.Key)
		}
	}
	return nil
}

// RunAnswer is what a run left: its directory and the records of every
// trial (those of a resumed run's earlier sessions included).
type RunAnswer struct {
	Dir     string
	Records []results.Record
	// Interrupted is true when an interrupt left trials unrun (a signal
	// after the last trial finished leaves the run complete).
	Interrupted bool
}

// Run prepares the run directory (refusing one that holds another run,
// InputError) and runs the plan, logging progress to log. announce, if
// not nil, is called with the directory before the first trial. An
// interrupted run returns what it recorded with ctx's error.
func Run(ctx context.Context, p *Plan, log io.Writer, announce func(dir string)) (*RunAnswer, error) {
	dir, err := prepareRunDir(p.req.Out, p.Exp, p.req.Resume)
	if err != nil {
		return nil, err
	}
	previous, err := previousRecords(dir, p.req.Resume, log)
	if err != nil {
		return nil, err
	}
	onEvent := p.req.OnEvent
	if p.req.Live != "" {
		page, err := live.Start(p.req.Live, dir, previous)
		if err != nil {
			return nil, invalid(err)
		}
		defer page.Close() //nolint:errcheck // the run is over; a page that does not close cleanly loses nothing
		fmt.Fprintf(log, "prodlab: live page at %s (until the run ends)\n", page.URL())
		onEvent = both(onEvent, page.Publish)
	}
	opts := lab.Options{
		Dir:        dir,
		Bootstrap:  p.Bootstrap,
		Fleets:     p.fleets,
		Log:        log,
		KeepTopics: p.req.KeepTopics,
		WorkerJar:  WorkerJar(),
		Version:    p.req.Version,
		Previous:   previous,
		OnEvent:    onEvent,
	}
	if announce != nil {
		announce(dir)
	}
	sum, err := lab.Run(ctx, p.Exp, p.Scenarios, opts)
	if sum == nil {
		return nil, err
	}
	return &RunAnswer{Dir: dir, Records: sum.Records, Interrupted: sum.Stopped}, err
}

// both is a subscriber that gives each event to a, if set, then b.
func both(a, b func(lab.Event)) func(lab.Event) {
	if a == nil {
		return b
	}
	return func(ev lab.Event) { a(ev); b(ev) }
}

// previousRecords reads what the run in dir recorded before, when resuming
// it; a run that stopped before its first trial has none, so unlike
// ReadRun an empty or torn-only results file is not refused here.
func previousRecords(dir string, resume bool, log io.Writer) ([]results.Record, error) {
	if !resume {
		return nil, nil
	}
	previous, _, err := readRun(dir, log)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	fmt.Fprintf(log, "prodlab: resuming %s: %d trials recorded before\n", dir, len(previous))
	if previous == nil {
		previous = []results.Record{}
	}
	return previous, nil
}

// ReadRun reads the records of run directory dir leniently: a line that
// cannot be used (the fragment a full disk or a crash left, a record of an
// unknown schema) costs that line only, not the run, and gets one warning
// line on warn. A results file that cannot be read, or that holds no
// record at all (empty, binary, only a torn line), is an InputError: a
// report or comparison of nothing would look like a run that measured
// nothing.
func ReadRun(dir string, warn io.Writer) ([]results.Record, error) {
	recs, skipped, err := readRun(dir, warn)
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 {
		return recs, nil
	}
	path := filepath.Join(dir, results.ResultsFile)
	if skipped == 0 {
		return nil, invalid(fmt.Errorf("%s is empty: the run recorded no trial", path))
	}
	return nil, invalid(fmt.Errorf("%s holds no readable record: %d %s skipped", path, skipped, plural(skipped, "line", "lines")))
}

// readRun is ReadRun without the refusal of a run with no record; it
// returns how many lines it skipped (each warned of on warn).
func readRun(dir string, warn io.Writer) ([]results.Record, int, error) {
	if st, err := os.Stat(dir); err == nil && !st.IsDir() {
		return nil, 0, invalid(fmt.Errorf("%s is a file, not a run directory: give the directory that holds %s", dir, results.ResultsFile))
	}
	recs, skipped, err := results.ReadAll(dir)
	if err != nil {
		return nil, 0, invalid(err) // it names the file: "read results: open …"
	}
	path := filepath.Join(dir, results.ResultsFile)
	if err := results.CheckSchemas(path, skipped); err != nil {
		return nil, 0, invalid(err)
	}
	if err := checkRunFiles(dir); err != nil {
		return nil, 0, err
	}
	for _, s := range skipped {
		fmt.Fprintf(warn, "prodlab: warning: %s: skipped %s\n", path, s)
	}
	return recs, len(skipped), nil
}

// checkRunFiles refuses (InputError) a run directory whose plan.json or
// environment.json is damaged, a FIFO or a device, or whose
// experiment.yaml is one of those, before anything is rendered from it:
// all three are read to render runs.
func checkRunFiles(dir string) error {
	if _, _, err := results.ReadPlan(dir); err != nil {
		return invalid(err)
	}
	if _, _, err := results.ReadEnvironment(dir); err != nil {
		return invalid(err)
	}
	// experiment.yaml, read by report --html and by a report over runs
	_, err := inputfile.ReadMax(filepath.Join(dir, results.ExperimentFile), maxRunFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return invalid(err)
	}
	return nil
}

// checkJarPath refuses a worker jar path that exists but cannot be one on
// a Java class path: a directory, a FIFO or a device (java would start
// and fail with a stack trace), or a path holding the class path
// separator, which splits it in two.
func checkJarPath(jar string) error {
	name := jar
	if env := os.Getenv(workerJarEnv); env != "" {
		name = workerJarEnv + "=" + env
	}
	if strings.ContainsRune(jar, os.PathListSeparator) {
		return fmt.Errorf("%s holds %q, which splits a Java class path: point %s at a jar whose path has none", name, os.PathListSeparator, workerJarEnv)
	}
	if st, err := os.Stat(jar); err == nil && !st.Mode().IsRegular() {
		return fmt.Errorf("%s is not a jar file (%s): point %s at prodlab-worker.jar", name, inputfile.Kind(st.Mode()), workerJarEnv)
	}
	return nil
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// checkWorkerJar fails before anything starts when a scenario needs the
// Java client and the worker jar is missing.
func checkWorkerJar(scs []expfile.Scenario, jar string) error {
	for _, sc := range scs {
		if !driver.NeedsWorker(sc.Exp.Client) {
			continue
		}
		if _, err := os.Stat(jar); err != nil {
			return fmt.Errorf("client %s needs the Java worker, which is not at %s: build it with 'make build' (or point PRODLAB_WORKER_JAR at it)", sc.Exp.Client, jar)
		}
		if err := checkJarPath(jar); err != nil {
			return invalid(fmt.Errorf("client %s needs the Java worker: %w", sc.Exp.Client, err))
		}
		return nil
	}
	return nil
}
