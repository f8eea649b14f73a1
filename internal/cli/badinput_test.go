package cli

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/proc"
	"github.com/prodlab/prodlab/internal/results"
)

// badInput is one input prodlab must refuse before anything starts.
type badInput struct {
	kind string   // the group it is counted in (the table)
	name string   // what is wrong
	args []string // the command line after "prodlab"; see expandArgs
	yaml string   // an experiment file written for the row; "{exp}" in args names it
	code int      // the exit code wanted (2 for refused input)
	want string   // part of the message: the key, flag or suggestion
	hide string   // a secret in the input the output must not show
	// pending, when set, skips the row with this reason: a requirement
	// another change is making true (flip it on when that lands).
	pending string
	// ownBootstrap rows test the bootstrap list itself, so the harness
	// adds no guard address (see guardArgs).
	ownBootstrap bool
	// maven rows ask Maven Central which releases exist (a fresh cache
	// each test run), so they get mavenLimit instead of badInputLimit:
	// still nothing starts.
	maven bool
	// runFiles are written into the saved run "{run}" names (a file's
	// content, or fifoFile for a FIFO), over its valid files.
	runFiles map[string]string
	// env are environment variables set for the row; "{tmp}" in a value
	// is the row's temporary directory.
	env map[string]string
}

// fifoFile, as a runFiles content, makes the file a FIFO.
const fifoFile = "\x00fifo"

// The harness's guards. An input that is wrongly accepted must fail fast
// and visibly, never start a cluster:
//   - every run and perf row is given an unreachable cluster
//     (--bootstrap 127.0.0.1:1, --bootstrap-server 127.0.0.1:1) unless it
//     tests the bootstrap list itself: an accepted franz-go run then fails
//     at connect (exit 1) in well under a second, and no broker starts;
//   - PRODLAB_WORKER_JAR names a missing jar: an accepted Java run stops
//     at the worker check (exit 1) before any JVM starts;
//   - every run row gets --out inside a fresh temporary directory, which
//     must not exist afterwards (run creates it only after validation);
//   - prodlab's cache (cluster state) is a fresh directory, so cluster
//     rows do not see a cluster someone else left up;
//   - a row that takes longer than badInputLimit (a hang guard: rows end in
//     well under a second) fails, and its children, if any, are killed;
//     stderr must not show anything starting.
const (
	badInputLimit  = 30 * time.Second
	mavenLimit     = 60 * time.Second
	guardBootstrap = "127.0.0.1:1"
)

// badInputPendingEnv, set to anything, runs the pending rows too, to
// see which a change has made true: PRODLAB_BADINPUT_PENDING=1 go test
// -run TestBadInput ./internal/cli (under the brokers' lock: a pending
// row is one prodlab may still accept).
const badInputPendingEnv = "PRODLAB_BADINPUT_PENDING"

// startedMarkers are lines commands print once they start work.
var startedMarkers = []string{"prodlab: running", "started Kafka", "prodlab perf: ", "is up; logs in"}

// TestBadInput runs every bad input through the CLI in process and checks
// that it exits with the wanted code and message, and that nothing started.
func TestBadInput(t *testing.T) {
	t.Setenv("PRODLAB_WORKER_JAR", filepath.Join(t.TempDir(), "no-worker.jar"))
	t.Setenv(maven.CacheEnv, t.TempDir())
	rows := badInputs(t)
	if len(rows) < 150 {
		t.Errorf("%d bad inputs, want at least 150", len(rows))
	}
	for _, r := range rows {
		t.Run(r.kind+"/"+r.name, func(t *testing.T) {
			if r.pending != "" && os.Getenv(badInputPendingEnv) == "" {
				t.Skip("pending: " + r.pending)
			}
			checkBadInput(t, r)
		})
	}
}

// checkBadInput runs one row and checks its outcome.
func checkBadInput(t *testing.T, r badInput) {
	dir := t.TempDir()
	for k, v := range r.env {
		t.Setenv(k, strings.ReplaceAll(v, "{tmp}", dir))
	}
	out := filepath.Join(dir, "run")
	args := guardArgs(r, expandArgs(t, r, dir), out)
	resultsBefore := exists("results")
	limit := badInputLimit
	if r.maven {
		limit = mavenLimit
	}
	code, stdout, stderr, elapsed, ok := runWithin(args, limit)
	if !ok {
		proc.KillAll()
		t.Fatalf("prodlab %s: still running after %s: something started", strings.Join(args, " "), limit)
	}
	if code != r.code {
		t.Errorf("exit %d, want %d; stderr:\n%s", code, r.code, stderr)
	}
	if !strings.Contains(stderr, r.want) {
		t.Errorf("stderr lacks %q:\n%s", r.want, stderr)
	}
	if r.hide != "" && strings.Contains(stderr+stdout, r.hide) {
		t.Errorf("output shows the secret %q:\n%s", r.hide, stderr)
	}
	for _, m := range startedMarkers {
		if strings.Contains(stderr+stdout, m) {
			t.Errorf("output shows something started (%q) in %s:\n%s", m, elapsed, stderr)
		}
	}
	if exists(out) {
		t.Errorf("the run directory %s was created", out)
	}
	if !resultsBefore && exists("results") {
		_ = os.RemoveAll("results")
		t.Errorf("a results directory was created")
	}
}

// runWithin runs the CLI with args, giving up after limit (ok false).
func runWithin(args []string, limit time.Duration) (code int, stdout, stderr string, elapsed time.Duration, ok bool) {
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	start := time.Now()
	go func() {
		var o, e bytes.Buffer
		c := run(args, &o, &e)
		done <- result{c, o.String(), e.String()}
	}()
	select {
	case res := <-done:
		return res.code, res.stdout, res.stderr, time.Since(start), true
	case <-time.After(limit):
		return 0, "", "", limit, false
	}
}

// expandArgs writes the row's experiment file and puts its path for
// "{exp}", the testdata directory for "{td}", a directory holding a
// previous run for "{prevrun}", and a new FIFO for "{fifo}", in the
// arguments.
func expandArgs(t *testing.T, r badInput, dir string) []string {
	t.Helper()
	exp := filepath.Join(dir, "exp.yaml")
	td, err := filepath.Abs(filepath.Join("testdata", "badinput"))
	if err != nil {
		t.Fatal(err)
	}
	if r.yaml != "" {
		if err := os.WriteFile(exp, []byte(expandPaths(r.yaml, exp, td)), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if slices.Contains(r.args, "{prevrun}") {
		// a directory holding a run, as far as run can tell
		if err := os.MkdirAll(filepath.Join(dir, "prevrun"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "prevrun", "experiment.yaml"), []byte("name: prev\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if slices.Contains(r.args, "{fifo}") {
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	saved := filepath.Join(dir, "saved")
	if slices.ContainsFunc(r.args, func(a string) bool { return strings.Contains(a, "{run}") }) {
		writeSavedRun(t, saved, r.runFiles)
	}
	args := make([]string, len(r.args))
	for i, a := range r.args {
		args[i] = strings.NewReplacer("{prevrun}", filepath.Join(dir, "prevrun"), "{fifo}", fifo, "{run}", saved).Replace(expandPaths(a, exp, td))
	}
	return args
}

// writeSavedRun writes a finished run of two scenarios into dir, with a
// valid plan.json and environment.json, then files over them.
func writeSavedRun(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := results.Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		for _, id := range []string{"linger.ms=0", "linger.ms=5"} {
			rec := results.Record{Schema: results.Schema, Run: "saved", ScenarioID: id, Scenario: map[string]any{"linger.ms": id[len("linger.ms="):]},
				ScenarioKeys: []string{"linger.ms"}, Trial: i, Status: results.StatusOK,
				Records: results.Records{Sent: 1000, Acked: 1000}, Throughput: results.Throughput{RecordsPerS: float64(1000 + i)}}
			if err := w.Append(rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	plan := results.Plan{Level: 0.95, Margin: 0.05, Comparisons: []results.PlannedComparison{{Question: "linger", Baseline: "linger.ms=0", Candidate: "linger.ms=5"}}}
	if err := results.WritePlan(dir, plan); err != nil {
		t.Fatal(err)
	}
	if err := results.WriteEnvironment(dir, results.Environment{}); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		if content == fifoFile {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// expandPaths puts the row's experiment file for "{exp}" and the
// testdata directory for "{td}" in s.
func expandPaths(s, exp, td string) string {
	return strings.NewReplacer("{exp}", exp, "{td}", td).Replace(s)
}

// guardArgs adds the guards of run and perf rows (see badInputLimit).
func guardArgs(r badInput, args []string, out string) []string {
	if len(args) == 0 || slices.Contains(args, "--help") {
		return args
	}
	switch args[0] {
	case "run", "advise":
		if !slices.Contains(args, "--out") {
			args = append(args, "--out", out)
		}
		if !r.ownBootstrap {
			args = append(args, "--bootstrap", guardBootstrap)
		}
	case "perf":
		if !r.ownBootstrap {
			args = append(args, "--bootstrap-server", guardBootstrap)
		}
	}
	return args
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, os.ErrNotExist)
}

// TestBadInputGuards shows the harness can fail: an input that is valid
// is accepted, fails fast at the unreachable cluster or the missing
// worker (exit 1, not 2), and so fails its row.
func TestBadInputGuards(t *testing.T) {
	t.Setenv("PRODLAB_WORKER_JAR", filepath.Join(t.TempDir(), "no-worker.jar"))
	t.Setenv(maven.CacheEnv, t.TempDir())
	tests := []struct {
		name string
		r    badInput
		// the outcome the harness must see: not a refusal
		wantCode int
		started  bool // the run directory or a start marker appears
	}{
		// a valid franz-go experiment: connects to the guard address and fails
		{"valid franz-go run", badInput{args: []string{"run", "batching", "--set", "workload.records=10", "--set", "linger.ms=0", "--set", "compression.type=none"}}, ExitFailure, true},
		// a valid Java experiment: stops at the missing worker
		{"valid java run", badInput{args: []string{"run", "record-size"}}, ExitFailure, false},
		// valid perf flags: no broker answers at the guard address
		{"valid perf", badInput{args: []string{"perf", "--topic", "t", "--num-records", "1", "--record-size", "1"}}, ExitFailure, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			out := filepath.Join(dir, "run")
			args := guardArgs(tt.r, expandArgs(t, tt.r, dir), out)
			code, stdout, stderr, elapsed, ok := runWithin(args, 10*badInputLimit)
			if !ok {
				proc.KillAll()
				t.Fatalf("still running after %s", 10*badInputLimit)
			}
			if code != tt.wantCode {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, stderr)
			}
			started := exists(out)
			for _, m := range startedMarkers {
				started = started || strings.Contains(stdout+stderr, m)
			}
			if started != tt.started {
				t.Errorf("started = %v, want %v; stderr:\n%s", started, tt.started, stderr)
			}
			if elapsed > badInputLimit {
				t.Errorf("took %s, more than the %s a row may take", elapsed, badInputLimit)
			}
		})
	}
}

// TestBadInputSummary prints the rows per kind, for the table:
// kinds, how many rows, how many are checked now (the rest pending), and
// the exit codes wanted. Run with -v.
func TestBadInputSummary(t *testing.T) {
	type tally struct {
		rows, pending int
		codes         map[int]bool
	}
	byKind := map[string]*tally{}
	var kinds []string
	for _, r := range badInputs(t) {
		k, ok := byKind[r.kind]
		if !ok {
			k = &tally{codes: map[int]bool{}}
			byKind[r.kind] = k
			kinds = append(kinds, r.kind)
		}
		k.rows++
		k.codes[r.code] = true
		if r.pending != "" {
			k.pending++
		}
	}
	var b strings.Builder
	fmt.Fprintln(&b, "| kind | inputs | refused before start (checked now) | pending | exit code |")
	fmt.Fprintln(&b, "|---|---|---|---|---|")
	total, pending := 0, 0
	for _, kind := range kinds {
		k := byKind[kind]
		var codes []string
		for c := range k.codes {
			codes = append(codes, fmt.Sprint(c))
		}
		slices.Sort(codes)
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %s |\n", kind, k.rows, k.rows-k.pending, k.pending, strings.Join(codes, ", "))
		total += k.rows
		pending += k.pending
	}
	fmt.Fprintf(&b, "| **total** | %d | %d | %d | |\n", total, total-pending, pending)
	t.Log("\n" + b.String())
}

// Experiment files the rows build on: valid apart from what a row adds.
const (
	// javaBase is a valid experiment on the Java client.
	javaBase = "name: bad\nclient: java\n"
	// duetBody makes javaBase a valid duet of two arms.
	duetBody = "workload: {duration.s: 2, warmup.s: 0.5}\nschedule: duet\nmatrix: {linger.ms: [0, 5]}\ncompare: [{axis: linger.ms}]\n"
	// franzBase is a valid experiment on franz-go.
	franzBase = "name: bad\nclient: franz-go\n"
)

// runFile is a row running an experiment file: javaBase followed by body.
func runFile(kind, name, body, want string) badInput {
	return badInput{kind: kind, name: name, args: []string{"run", "{exp}"}, yaml: javaBase + body, code: ExitUsage, want: want}
}

// rawFile is a row running an experiment file of exactly body.
func rawFile(kind, name, body, want string) badInput {
	return badInput{kind: kind, name: name, args: []string{"run", "{exp}"}, yaml: body, code: ExitUsage, want: want}
}

// franzFile is a row running an experiment file: franzBase followed by
// body.
func franzFile(kind, name, body, want string) badInput {
	return badInput{kind: kind, name: name, args: []string{"run", "{exp}"}, yaml: franzBase + body, code: ExitUsage, want: want}
}

// runSet is a row running the built-in record-size experiment (java, no
// zones: fit for the guard's --bootstrap) with --set overrides.
func runSet(name, want string, sets ...string) badInput {
	args := []string{"run", "record-size"}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	return badInput{kind: "run --set", name: name, args: args, code: ExitUsage, want: want}
}

// perfRow is a row of perf flags after a valid base command line.
func perfRow(kind, name, want string, args ...string) badInput {
	base := []string{"perf", "--topic", "t", "--num-records", "10", "--record-size", "100"}
	return badInput{kind: kind, name: name, args: append(base, args...), code: ExitUsage, want: want}
}

// cmdRow is a row of any command line.
func cmdRow(kind, name string, code int, want string, args ...string) badInput {
	return badInput{kind: kind, name: name, args: args, code: code, want: want}
}

// fromMaven marks a row that asks Maven Central which releases exist.
func fromMaven(r badInput) badInput {
	r.maven = true
	return r
}

// hiding marks a row whose input holds the secret s, which the output
// must not show.
func hiding(s string, r badInput) badInput {
	r.hide = s
	return r
}

// ownBootstrap marks a row that tests the bootstrap list itself.
func ownBootstrap(r badInput) badInput {
	r.ownBootstrap = true
	return r
}

// badInputs is the table. Rows come in groups (kind); each group's
// comment says what it covers.
func badInputs(t *testing.T) []badInput {
	t.Helper()
	var rows []badInput
	add := func(rs ...badInput) { rows = append(rows, rs...) }

	// The root command and commands that take no input.
	add(
		cmdRow("command line", "unknown command", ExitUsage, `unknown command "rnu"`, "rnu"),
		cmdRow("command line", "unknown root flag", ExitUsage, "unknown flag: --verbose", "--verbose"),
		cmdRow("command line", "experiments with an argument", ExitUsage, `unknown command "batching"`, "experiments", "batching"),
		cmdRow("command line", "experiments unknown flag", ExitUsage, "unknown flag: --all", "experiments", "--all"),
		cmdRow("command line", "unknown shorthand", ExitUsage, "unknown shorthand flag: 'x'", "run", "-x"),
	)

	// prodlab run: arguments and flags.
	add(
		cmdRow("run flags", "two experiments", ExitUsage, "accepts at most 1 arg", "run", "batching", "replication"),
		cmdRow("run flags", "unknown flag", ExitUsage, "unknown flag: --outt", "run", "batching", "--outt", "x"),
		cmdRow("run flags", "--live not HOST:PORT", ExitUsage, `--live: live page address "nonsense": want HOST:PORT`, "run", "record-size", "--live=nonsense"),
		cmdRow("run flags", "--live not this machine's", ExitUsage, "--live: live page: listen tcp 192.0.2.1:0", "run", "record-size", "--live=192.0.2.1:0"),
		cmdRow("run flags", "--set empty", ExitUsage, "--set : expected key=value", "run", "batching", "--set="),
		cmdRow("run flags", "unknown format", ExitUsage, `unknown format "xml": want one of table`, "run", "batching", "--format", "xml"),
		cmdRow("run flags", "empty format", ExitUsage, "unknown format \"\"", "run", "batching", "--format", ""),
		cmdRow("run flags", "keep-topics with a value", ExitUsage, "invalid argument", "run", "batching", "--keep-topics=maybe"),
		cmdRow("run flags", "unknown built-in", ExitUsage, `did you mean "batching"`, "run", "batchng"),
		cmdRow("run flags", "unknown built-in, no near name", ExitUsage, "built-ins: ", "run", "zzzzzz"),
		cmdRow("run flags", "missing file path", ExitUsage, "read experiment", "run", "./nope/missing.yaml"),
		cmdRow("run flags", ".yml path missing", ExitUsage, "read experiment", "run", "missing.yml"),
		cmdRow("run flags", "a directory as experiment", ExitUsage, "is a directory", "run", "{td}/"),
		cmdRow("run flags", "empty experiment name", ExitUsage, "no such file or built-in", "run", ""),
		cmdRow("run flags", "--out is a file", ExitUsage, "--out", "run", "batching", "--out", "{td}/binary.yaml"),
		cmdRow("run flags", "--out under /proc", ExitUsage, "--out", "run", "batching", "--out", "/proc/prodlab-run"),
		cmdRow("run flags", "--out read-only", ExitUsage, "--out", "run", "batching", "--out", "/sys/prodlab-run"),
		cmdRow("run flags", "--out reused without --resume", ExitUsage, "already holds a run", "run", "batching", "--out", "{prevrun}"),
	)

	// prodlab run --trogdor: the coordinator's address and the flags that
	// need it, checked before any probe; an unreachable coordinator is
	// refused by the probe, before anything starts.
	add(
		cmdRow("run --trogdor", "no scheme", ExitUsage, "--trogdor: want http://HOST:PORT (the coordinator's REST address)", "run", "batching", "--trogdor", "127.0.0.1:8889"),
		cmdRow("run --trogdor", "no port", ExitUsage, "want http://HOST:PORT with a port", "run", "batching", "--trogdor", "http://127.0.0.1"),
		cmdRow("run --trogdor", "a path", ExitUsage, "without a path or query", "run", "batching", "--trogdor", "http://127.0.0.1:8889/coordinator/status"),
		cmdRow("run --trogdor", "nodes without --trogdor", ExitUsage, "--trogdor-nodes and --trogdor-max-producers-per-node need --trogdor URL", "run", "batching", "--trogdor-nodes", "agent-1"),
		cmdRow("run --trogdor", "negative per-node limit", ExitUsage, "--trogdor-max-producers-per-node must be at least 0", "run", "batching", "--trogdor", "http://127.0.0.1:8889", "--trogdor-max-producers-per-node", "-1"),
		cmdRow("run --trogdor", "a node twice", ExitUsage, `--trogdor-nodes a,a: trogdor.nodes names agent "a" twice`, "run", "batching", "--trogdor", "http://127.0.0.1:8889", "--trogdor-nodes", "a,a"),
		embedded(cmdRow("run --trogdor", "unreachable coordinator", ExitUsage, "trogdor coordinator http://127.0.0.1:1", "run", "batching", "--trogdor", "http://127.0.0.1:1")),
		runFile("run --trogdor", "trogdor.nodes without a coordinator", "trogdor: {nodes: agent-1}\n", "trogdor.nodes needs trogdor.coordinator (or --trogdor URL)"),
		runFile("run --trogdor", "trogdor.coordinator not a URL", "trogdor: {coordinator: coord}\n", "trogdor.coordinator: want http://HOST:PORT"),
	)

	// prodlab run: --bootstrap syntax (the list is the row's own).
	for _, bs := range []struct{ in, want string }{
		{"foo", `"foo" has no port`},
		{"127.0.0.1", "e.g. 127.0.0.1:9092"},
		{"127.0.0.1:99999", "1..65535"},
		{",", "is empty"},
		{"127.0.0.1:9092,", "is empty"},
		{":9092", "has no host"},
		{"::1:9092", "in brackets"},
		{"kafka://h:9092", "drop the scheme"},
	} {
		add(ownBootstrap(cmdRow("run --bootstrap", bs.in, ExitUsage, bs.want, "run", "replication", "--bootstrap", bs.in)))
	}

	add(honestEdges()...)
	add(roundTwoRows()...)

	// prodlab run --set: keys and values checked like the file.
	add(
		runSet("no equals sign", "expected key=value", "linger.ms"),
		runSet("empty key", "expected key=value", "=5"),
		runSet("unknown key", "unknown key \"lingr.ms\"; did you mean \"linger.ms\"?", "lingr.ms=5"),
		runSet("unknown dotted key", "did you mean \"workload.records\"?", "workload.recrods=5"),
		runSet("unknown producer property", "unknown key \"producer.nope\"", "producer.nope=1"),
		runSet("unknown topic config", "unknown key \"topic.configs.nope\"", "topic.configs.nope=1"),
		runSet("negative records", "workload.records must be an integer", "workload.records=-5"),
		runSet("zero records", "workload.records", "workload.records=0"),
		runSet("records not a number", "workload.records", "workload.records=many"),
		runSet("records too many", "workload.records", "workload.records=1e12"),
		runSet("record.size zero", "workload.record.size must be an integer in 1..16777216", "record.size=0"),
		runSet("record.size negative", "workload.record.size must be an integer in 1..16777216", "record.size=-1"),
		runSet("record.size above 16 MiB", "workload.record.size must be an integer in 1..16777216", "record.size=17000000"),
		runSet("acks=2", "acks must be one of", "acks=2"),
		runSet("acks empty", "acks must be one of", "acks="),
		runSet("linger.ms negative", "linger.ms must be an integer", "linger.ms=-1"),
		runSet("linger.ms float", "linger.ms must be an integer", "linger.ms=1.5"),
		runSet("batch.size above int32", "batch.size must be an integer", "batch.size=3000000000"),
		runSet("compression unknown", "compression.type must be one of", "compression.type=brotli"),
		runSet("idempotence yes", "enable.idempotence must be true or false", "enable.idempotence=yes"),
		runSet("in-flight zero", "max.in.flight.requests.per.connection", "max.in.flight.requests.per.connection=0"),
		runSet("lz4 level 99", "compression.lz4.level", "compression.lz4.level=99"),
		runSet("brokers zero", "cluster.brokers", "cluster.brokers=0"),
		runSet("brokers ten", "cluster.brokers", "cluster.brokers=10"),
		runSet("partitions zero", "topic.partitions", "topic.partitions=0"),
		runSet("replication factor above brokers", "exceeds brokers", "topic.replication.factor=3", "cluster.brokers=1"),
		runSet("trials zero", "trials", "trials=0"),
		runSet("trials words", "trials", "trials=lots"),
		runSet("warmup negative", "warmup", "warmup=-1"),
		runSet("precision above one", "precision", "precision=2"),
		runSet("precision zero", "precision", "precision=0"),
		runSet("budget not a duration", "budget must be a duration", "budget=soon"),
		runSet("equivalence zero", "equivalence", "equivalence=0"),
		runSet("rtt negative", "network.rtt.ms", "network.rtt.ms=-5"),
		runSet("rtt huge", "network.rtt.ms", "network.rtt.ms=1e9"),
		runSet("bandwidth words", "network.bandwidth", "network.bandwidth=fast"),
		runSet("payload unknown", "workload.payload must be one of json, random, text or file:PATH", "payload=zeros"),
		runSet("payload file missing", "workload.payload file \"/nonexistent/p.json\" does not exist", "payload=file:/nonexistent/p.json"),
		runSet("client unknown", "client must be franz-go, java, java@<version>, librdkafka or librdkafka@2.11.1", "client=rdkafka"),
		runSet("client version garbage", "client must be franz-go, java, java@<version>, librdkafka or librdkafka@2.11.1", "client=java@latest"),
		runSet("name empty", "name must be non-empty and contain no slash", "name="),
		runSet("audit maybe", "audit must be true or false", "audit=maybe"),
		runSet("replication factor beyond brokers", "replication.factor 4 exceeds brokers 1", "replication.factor=4"),
		runSet("timeout zero", "workload.timeout.s", "workload.timeout.s=0"),
		runSet("min.insync.replicas words", "min.insync.replicas", "topic.configs.min.insync.replicas=two"),
		runSet("ambiguous shorthand size", "ambiguous", "size=5"),
		runSet("trials a billion", "trials", "trials=1000000000"),
		runSet("partitions 100000", "topic.partitions", "topic.partitions=100000"),
		runSet("cleanup.policy banana", "cleanup.policy", "topic.configs.cleanup.policy=banana"),
		runSet("payload /dev/null", "payload", "payload=file:/dev/null"),
		runSet("record.size below the json minimum", "record.size", "record.size=1", "payload=json"),
		runSet("key count 0", "workload.keys.count", "keys.distribution=uniform", "keys.count=0"),
		runSet("zipf exponent negative", "workload.keys.zipf.exponent", "keys.distribution=zipf", "keys.zipf.exponent=-1"),
		runSet("producers above the limit", "workload.producers must be an integer in 1..64", "producers=65"),
		runSet("security unknown", "cluster.security must be one of plaintext, ssl, sasl_plaintext, sasl_ssl", "security=tls"),
		fromMaven(runSet("java@0.0.0", "java@0.0.0", "client=java@0.0.0")),
		fromMaven(runSet("java@99.1", "java@99.1", "client=java@99.1")),
		embedded(runSet("kafka 99.0.0", "99.0.0", "cluster.kafka=99.0.0")),
	)

	// Experiment files: YAML syntax and structure.
	add(
		runFile("file: syntax", "unclosed flow list", "producer: {acks: [all}\n", "YAML"),
		runFile("file: syntax", "unclosed quote", "description: \"open\n", "YAML"),
		runFile("file: syntax", "bad indentation", "producer:\n  acks: all\n linger.ms: 5\n", "exp.yaml:"),
		runFile("file: syntax", "two documents", "---\nname: other\n", "one YAML document"),
		runFile("file: syntax", "list at top level", "- a\n", "YAML"),
		cmdRow("file: syntax", "top level a list", ExitUsage, "mapping", "run", "{td}/top-list.yaml"),
		runFile("file: syntax", "duplicate key", "client: franz-go\n", "mapping key \"client\" already defined"),
		runFile("file: syntax", "undefined alias", "description: *nothing\n", "description must be a single value"),
		cmdRow("file: syntax", "tab indentation", ExitUsage, "tab-indent.yaml:", "run", "{td}/tab-indent.yaml"),
		cmdRow("file: syntax", "self-referencing alias", ExitUsage, "self-alias.yaml", "run", "{td}/self-alias.yaml"),
		cmdRow("file: syntax", "binary file", ExitUsage, "binary.yaml", "run", "{td}/binary.yaml"),
		cmdRow("file: syntax", "duplicate matrix axis", ExitUsage, "mapping key \"linger.ms\" already defined", "run", "{td}/duplicate-axis.yaml"),
		cmdRow("file: syntax", "CRLF line ends, zero partitions", ExitUsage, "topic.partitions", "run", "{td}/crlf-zero-partitions.yaml"),
		cmdRow("file: syntax", "byte order mark, negative records", ExitUsage, "workload.records must be an integer", "run", "{td}/bom-negative-records.yaml"),
		badInput{kind: "file: syntax", name: "empty file", args: []string{"run", "{exp}"}, yaml: "\n", code: ExitUsage, want: "empty experiment file"},
		badInput{kind: "file: syntax", name: "only a comment", args: []string{"run", "{exp}"}, yaml: "# nothing\n", code: ExitUsage, want: "empty experiment file"},
		badInput{kind: "file: syntax", name: "a scalar", args: []string{"run", "{exp}"}, yaml: "just words\n", code: ExitUsage, want: "mapping"},
		badInput{kind: "file: syntax", name: "no name", args: []string{"run", "{exp}"}, yaml: "client: java\n", code: ExitUsage, want: `missing required key "name"`},
	)

	// Experiment files: unknown keys, with a suggestion.
	add(
		runFile("file: unknown keys", "top-level typo", "worklaod: {records: 5}\n", `did you mean "workload"?`),
		runFile("file: unknown keys", "producer typo", "producer: {lingr.ms: 5}\n", `did you mean "linger.ms"?`),
		runFile("file: unknown keys", "workload typo", "workload: {recrods: 5}\n", "recrods"),
		runFile("file: unknown keys", "cluster typo", "cluster: {brokerz: 1}\n", "brokerz"),
		runFile("file: unknown keys", "topic typo", "topic: {partitons: 1}\n", "partitons"),
		runFile("file: unknown keys", "topic config typo", "topic: {configs: {min.insync.replica: 1}}\n", "min.insync.replica"),
		runFile("file: unknown keys", "network typo", "network: {rtt: 5}\n", "rtt"),
		runFile("file: unknown keys", "timeline typo", "timeline: {interval: 5}\n", "interval"),
		runFile("file: unknown keys", "consumer property", "producer: {group.id: g}\n", "group.id"),
		runFile("file: unknown keys", "broker property as producer", "producer: {message.max.bytes: 5}\n", "message.max.bytes"),
		runFile("file: unknown keys", "camelCase", "producer: {lingerMs: 5}\n", "lingerMs"),
		runFile("file: unknown keys", "matrix unknown key", "matrix: {lingr.ms: [0, 5]}\n", `unknown key "lingr.ms" in matrix`),
		runFile("file: unknown keys", "top-level payload", "payload: json\n", "workload.payload"),
	)

	// Experiment files: values of the wrong type.
	add(
		runFile("file: bad types", "records a list", "workload: {records: [1, 2]}\n", "workload.records must be a single value"),
		runFile("file: bad types", "records a map", "workload: {records: {a: 1}}\n", "workload.records must be a single value"),
		runFile("file: bad types", "records a word", "workload: {records: many}\n", "workload.records must be an integer"),
		runFile("file: bad types", "record.size a float", "workload: {record.size: 1.5}\n", "workload.record.size must be an integer in 1..16777216"),
		runFile("file: bad types", "rate a word", "workload: {rate: fast}\n", "workload.rate"),
		runFile("file: bad types", "producer a list", "producer: [acks]\n", "producer must be a mapping of property names to values"),
		runFile("file: bad types", "producer a scalar", "producer: acks\n", "producer must be a mapping of property names to values"),
		runFile("file: bad types", "cluster a scalar", "cluster: big\n", "cluster must be a mapping"),
		runFile("file: bad types", "topic a list", "topic: [1]\n", "topic must be a mapping"),
		rawFile("file: bad types", "name a list", "name: [a]\nclient: java\n", "name must be a single value"),
		runFile("file: bad types", "audit a number", "audit: 3\n", "audit must be true or false"),
		runFile("file: bad types", "audit a list", "audit: [true]\n", "audit must be a single value"),
		runFile("file: bad types", "brokers a bool", "cluster: {brokers: true}\n", "cluster.brokers"),
		runFile("file: bad types", "linger a map", "producer: {linger.ms: {a: 1}}\n", "producer.linger.ms must be a single value"),
		runFile("file: bad types", "acks a list", "producer: {acks: [all]}\n", "producer.acks must be a single value"),
		runFile("file: bad types", "trials a list", "trials: [1]\n", "trials must be a single value"),
		runFile("file: bad types", "faults a map", "faults: {type: broker.kill}\n", "faults must be a list of mappings"),
		runFile("file: bad types", "matrix a list", "matrix: [linger.ms]\n", "matrix must be a mapping"),
		runFile("file: bad types", "compare a map", "compare: {axis: linger.ms}\n", "compare must be a list"),
		runFile("file: bad types", "topic configs a list", "topic: {configs: [a]}\n", "topic.configs must be a mapping"),
		runFile("file: bad types", "network a list", "network: [1]\n", "network must be a mapping"),
		runFile("file: bad types", "precision a word", "precision: high\n", "precision"),
		runFile("file: bad types", "budget a list", "budget: [1m]\n", "budget must be a single value"),
		runFile("file: bad types", "idempotence a number", "producer: {enable.idempotence: 1}\n", "enable.idempotence must be true or false"),
	)

	// Experiment files: values out of range (negative, zero, huge).
	add(
		runFile("file: bad values", "records negative", "workload: {records: -1}\n", "workload.records"),
		runFile("file: bad values", "records zero", "workload: {records: 0}\n", "workload.records"),
		cmdRow("file: bad values", "records beyond int64", ExitUsage, "workload.records", "run", "{td}/huge-records.yaml"),
		runFile("file: bad values", "records 1e400", "workload: {records: 1e400}\n", "workload.records"),
		runFile("file: bad values", "record.size zero", "workload: {record.size: 0}\n", "workload.record.size must be an integer in 1..16777216"),
		runFile("file: bad values", "record.size 1 GiB", "workload: {record.size: 1073741824}\n", "workload.record.size must be an integer in 1..16777216"),
		runFile("file: bad values", "rate negative", "workload: {rate: -1}\n", "workload.rate"),
		runFile("file: bad values", "rate NaN", "workload: {rate: .nan}\n", "workload.rate"),
		runFile("file: bad values", "timeout negative", "workload: {timeout.s: -1}\n", "workload.timeout.s"),
		runFile("file: bad values", "duration negative", "workload: {duration.s: -3}\n", "workload.duration.s"),
		runFile("file: bad values", "warmup.s negative", "workload: {warmup.s: -1}\n", "workload.warmup.s"),
		runFile("file: bad values", "warmup.records negative", "workload: {warmup.records: -1}\n", "workload.warmup.records"),
		runFile("file: bad values", "brokers zero", "cluster: {brokers: 0}\n", "cluster.brokers"),
		runFile("file: bad values", "brokers 100", "cluster: {brokers: 100}\n", "cluster.brokers"),
		runFile("file: bad values", "controllers 6", "cluster: {controllers: 6}\n", "cluster.controllers must be an integer in 0..5"),
		runFile("file: bad values", "broker property not a name", "cluster: {configs: {Num Threads: 3}}\n", `"Num Threads" is not a broker property name`),
		runFile("file: bad values", "broker configs a list", "cluster: {configs: [a]}\n", "cluster.configs must be a mapping"),
		runFile("file: bad values", "broker configs on an existing cluster", "cluster: {configs: {num.io.threads: 4}}\n", "cluster.configs and cluster.controllers shape an embedded cluster"),
		runFile("file: bad values", "partitions negative", "topic: {partitions: -1}\n", "topic.partitions"),
		runFile("file: bad values", "replication factor zero", "topic: {replication.factor: 0}\n", "topic.replication.factor"),
		runFile("file: bad values", "replication factor above brokers", "topic: {replication.factor: 2}\n", "exceeds brokers"),
		runFile("file: bad values", "min.insync.replicas above RF", "topic: {configs: {min.insync.replicas: 2}}\n", "min.insync.replicas 2 exceeds"),
		runFile("file: bad values", "acks 2", "producer: {acks: 2}\n", "acks must be one of"),
		runFile("file: bad values", "acks none", "producer: {acks: none}\n", "acks must be one of"),
		runFile("file: bad values", "linger.ms negative", "producer: {linger.ms: -5}\n", "linger.ms must be an integer"),
		runFile("file: bad values", "batch.size above int32", "producer: {batch.size: 99999999999}\n", "batch.size"),
		runFile("file: bad values", "in-flight zero", "producer: {max.in.flight.requests.per.connection: 0}\n", "max.in.flight"),
		runFile("file: bad values", "compression brotli", "producer: {compression.type: brotli}\n", "compression.type must be one of"),
		runFile("file: bad values", "zstd level 99", "producer: {compression.zstd.level: 99}\n", "compression.zstd.level"),
		runFile("file: bad values", "security protocol", "producer: {security.protocol: TLS}\n", "security.protocol must be one of"),
		franzFile("file: bad values", "max.buffered.records zero", "producer: {max.buffered.records: 0}\n", "max.buffered.records"),
		franzFile("file: bad values", "franz-go cannot honour a Java property", "producer: {max.request.size: 5}\n", "not supported by client franz-go"),
		runFile("file: bad values", "java cannot honour max.buffered.records", "producer: {max.buffered.records: 5}\n", "max.buffered.records is not supported by client java"),
		franzFile("file: bad values", "franz-go idempotence with acks 1", "producer: {enable.idempotence: true, acks: 1}\n", "requires acks=all"),
		franzFile("file: bad values", "franz-go idempotence with 6 in flight", "producer: {enable.idempotence: true, max.in.flight.requests.per.connection: 6}\n", "≤ 5"),
		franzFile("file: bad values", "franz-go transactions without idempotence", "producer: {enable.idempotence: false, transactional.id: t}\n", "transactional.id requires idempotence"),
		runFile("file: bad values", "payload unknown", "workload: {payload: zeros}\n", "workload.payload must be one of json, random, text or file:PATH"),
		runFile("file: bad values", "payload file missing", "workload: {payload: file:missing.json}\n", "workload.payload file \"missing.json\" does not exist"),
		rawFile("file: bad values", "client unknown", "name: bad\nclient: rdkafka\n", "client must be franz-go, java, java@<version>, librdkafka or librdkafka@2.11.1"),
		rawFile("file: bad values", "client version words", "name: bad\nclient: java@newest\n", "got \"java@newest\""),
		rawFile("file: bad values", "franz-go with a version", "name: bad\nclient: franz-go@1.0.0\n", "got \"franz-go@1.0.0\""),
		runFile("file: bad values", "kafka version words", "cluster: {kafka: latest}\n", "cluster.kafka must be a Kafka release version (like 4.1.0)"),
		runFile("file: bad values", "kafka dir missing", "cluster: {kafka: /nonexistent/kafka}\n", "cluster.kafka must be a Kafka release version (like 4.1.0) or an existing distribution directory"),
		runFile("file: bad values", "trials zero", "trials: 0\n", "trials"),
		runFile("file: bad values", "trials negative", "trials: -3\n", "trials"),
		runFile("file: bad values", "warmup words", "warmup: some\n", "warmup"),
		runFile("file: bad values", "precision 1.5", "precision: 1.5\n", "precision"),
		runFile("file: bad values", "equivalence negative", "equivalence: -0.1\n", "equivalence"),
		runFile("file: bad values", "budget negative", "trials: auto\nbudget: -5m\n", "budget"),
		runFile("file: bad values", "budget too short for a round", "trials: auto\nbudget: 1s\nworkload: {duration.s: 10}\n", "cannot fit one round"),
		runFile("file: bad values", "warmup.max.s zero", "warmup.max.s: 0\n", "warmup.max.s"),
		runFile("file: bad values", "rtt beyond 10 s", "network: {rtt.ms: 20000}\n", "network.rtt.ms"),
		runFile("file: bad values", "jitter negative", "network: {jitter.ms: -1}\n", "network.jitter.ms"),
		runFile("file: bad values", "cut.every negative", "network: {cut.every: -1}\n", "network.cut.every"),
		runFile("file: bad values", "proxy words", "network: {proxy: sometimes}\n", "network.proxy"),
		runFile("file: bad values", "timeline interval negative", "timeline: {interval.ms: -1}\n", "timeline.interval.ms"),
		rawFile("file: bad values", "name with a slash", "name: a/b\nclient: java\n", "name must be non-empty and contain no slash"),
		runFile("file: bad values", "cleanup.policy banana", "topic: {configs: {cleanup.policy: banana}}\n", "cleanup.policy"),
		runFile("file: bad values", "partitions 100000", "topic: {partitions: 100000}\n", "topic.partitions"),
		runFile("file: bad values", "trials a billion", "trials: 1000000000\n", "trials"),
		runFile("file: bad values", "payload /dev/null", "workload: {payload: file:/dev/null}\n", "payload"),
		runFile("file: bad values", "json record.size 1", "workload: {payload: json, record.size: 1}\n", "record.size"),
		runFile("file: bad values", "key count 0", "workload: {keys: {distribution: uniform, count: 0}}\n", "workload.keys.count must be an integer in 1..10000000"),
		runFile("file: bad values", "zipf exponent 0", "workload: {keys: {distribution: zipf, zipf.exponent: 0}}\n", "workload.keys.zipf.exponent must be a number > 0"),
		runFile("file: bad values", "key distribution typo", "workload: {keys: zpif}\n", `did you mean "zipf"?`),
		runFile("file: bad values", "key size too short", "workload: {keys: {distribution: sequential, count: 1000, size: 2}}\n", "workload.keys.size 2 is too short for 1000 keys"),
		runFile("file: unknown keys", "keys.cont", "workload: {keys: {cont: 5}}\n", `unknown key "cont" in workload.keys; did you mean "count"?`),
		runFile("file: bad values", "producers 0", "workload: {producers: 0}\n", "workload.producers must be an integer in 1..64"),
		runFile("file: bad values", "fewer records than producers", "workload: {records: 3, producers: 4}\n", "workload.records 3 is fewer than workload.producers 4"),
		runFile("file: bad values", "consumer maybe", "workload: {consumer: maybe}\n", "workload.consumer must be true or false"),
		runFile("file: unknown keys", "producer.jvms (not supported)", "workload: {producer.jvms: 2}\n", `unknown key "producer.jvms" in workload`),
		runFile("file: bad values", "security typo", "cluster: {security: sasl_sll}\n", `cluster.security must be one of plaintext, ssl, sasl_plaintext, sasl_ssl, got "sasl_sll"; did you mean "sasl_ssl"?`),
		runFile("file: bad values", "cut.every under tls", "cluster: {security: ssl}\nnetwork: {cut.every: 10}\n", "network.cut.every needs the proxies to read Kafka requests, which cluster.security=ssl encrypts"),
		runFile("file: bad values", "connection.cut under a tls axis", "faults: [{type: connection.cut, every: 5}]\nmatrix: {security: [plaintext, sasl_ssl]}\n", `scenario "security=sasl_ssl": fault connection.cut needs the proxies to read Kafka requests`),
		runFile("file: bad values", "scram before kafka 3.5", "cluster: {kafka: 3.4.1, security: sasl_ssl}\n", "cluster.security=sasl_ssl needs Kafka 3.5 or later"),
		runFile("run --bootstrap", "cluster.security on an existing cluster", "cluster: {security: ssl}\n", "cluster.security secures the listener of brokers prodlab starts"),
		runFile("run --bootstrap", "cluster.storage on an existing cluster", "cluster: {storage: memory}\n", "cluster.storage: memory places an embedded cluster's data"),
		runFile("run --bootstrap", "cluster.cpus: split on an existing cluster", "cluster: {cpus: split}\n", "cluster.cpus: split pins the brokers prodlab starts"),
		runFile("run --bootstrap", "schedule: duet on an existing cluster", duetBody, "schedule: duet starts a cluster for each arm"),
		runFile("run --bootstrap", "lives on an existing cluster", "lives: 3\n", "lives: 3 starts the brokers again for each life"),
		runFile("file: bad values", "lives zero", "lives: 0\n", "lives must be an integer in 1..20"),
		runFile("file: bad values", "lives 21", "lives: 21\n", "lives must be an integer in 1..20"),
		runFile("file: contradictions", "lives in a duet", duetBody+"lives: 3\n", "lives: 3 cannot run with schedule: duet"),
		runFile("file: contradictions", "lives of a capacity search", "workload: {duration.s: 2, warmup.s: 0.5}\ncapacity: {slo: {p99.ms: 50}}\nlives: 2\n", "lives: 2 applies to rounds, not to a capacity or advise search"),
		runFile("file: contradictions", "lives: auto in a duet", duetBody+"lives: auto\n", "lives: auto cannot run with schedule: duet"),
		runFile("run --bootstrap", "lives: auto on an existing cluster", "lives: auto\n", "lives: auto starts the brokers again for each life"),
		runFile("file: contradictions", "lives as a matrix axis", "matrix: {lives: [1, 3]}\n", `"lives" is a setting of the whole run`),
		runFile("file: bad values", "budget too short for a round in each life", "trials: auto\nbudget: 10s\nlives: 5\nworkload: {duration.s: 3}\n", "budget 10s cannot fit one round in each of its 5 lives (2s each)"),
		runFile("file: bad values", "schedule typo", "schedule: duo\n", `schedule must be one of sequential, duet, got "duo"; did you mean "duet"?`),
		runFile("file: contradictions", "duet with a scenario left alone", "workload: {duration.s: 2, warmup.s: 0.5}\nschedule: duet\nmatrix: {linger.ms: [0, 5, 10]}\ncompare: [{axis: linger.ms}]\n", "no planned comparison is left to pair linger.ms=10"),
		runFile("file: contradictions", "duet on disk", duetBody+"cluster: {storage: disk}\n", "schedule: duet cannot run with cluster.storage: disk"),
		franzFile("file: contradictions", "franz-go duet of codecs", "workload: {duration.s: 2, warmup.s: 0.5}\nschedule: duet\nmatrix: {compression.type: [none, zstd]}\ncompare: [{axis: compression.type}]\n", "so compression.type none against zstd would take client CPU from both arms"),
		runFile("file: bad values", "cpus typo", "cluster: {cpus: isolated}\n", `cluster.cpus must be one of auto, shared, split, got "isolated"`),
		runFile("file: bad values", "storage typo", "cluster: {storage: memroy}\n", `cluster.storage must be one of disk, memory, got "memroy"; did you mean "memory"?`),
		franzFile("run --bootstrap", "proxies in front of an existing tls cluster", "producer: {security.protocol: SSL}\nnetwork: {rtt.ms: 10}\n", "the proxies cannot rewrite broker addresses inside TLS"),
		runFile("file: bad values", "kip1269 retain below 5", "kip1269: {retain: 4}\n", "kip1269.retain must be at least 5 (KIP-1269's own minimum"),
		runFile("file: bad values", "kip1269 retain axis below 5", "matrix: {kip1269.retain: [20, 3]}\n", "kip1269.retain must be at least 5"),
		runSet("kip1269 retain below 5", "kip1269.retain must be at least 5", "kip1269.retain=1"),
		franzFile("file: bad values", "kip1269 client cap on franz-go", "kip1269: {lift.client.cap: true}\n", "franz-go's idempotent producer fixes 5 requests in flight itself"),
		runFile("run --bootstrap", "kip1269 retain on an existing cluster", "kip1269: {retain: 20}\n", "it does not patch brokers it did not start (drop kip1269 or --bootstrap)"),
		runFile("run --bootstrap", "kip1269 client cap on an existing cluster", "kip1269: {lift.client.cap: true}\n", "it does not patch brokers it did not start"),
		fromMaven(runFile("file: bad values", "java@0.0.0", "client: java@0.0.0\n", "java@0.0.0")),
		fromMaven(runFile("file: bad values", "java@99.1", "client: java@99.1\n", "java@99.1")),
		embedded(runFile("file: bad values", "kafka 99.0.0", "cluster: {kafka: 99.0.0}\n", "99.0.0")),
		embedded(badInput{kind: "file: bad values", name: "kafka dir empty", args: []string{"run", "{exp}"}, yaml: javaBase + "cluster: {kafka: /tmp}\n", code: ExitUsage, want: "no libs/"}),
		embedded(badInput{kind: "file: bad values", name: "kafka libs without jars", args: []string{"run", "{exp}"}, yaml: javaBase + "cluster: {kafka: {td}}\n", code: ExitUsage, want: "libs"}),
	)

	// Experiment files: faults.
	add(
		runFile("file: zones", "more zones than brokers", "cluster: {brokers: 2, zones: 3}\n", "cluster.zones 3 exceeds brokers 2: every zone needs a broker"),
		runFile("file: zones", "client zone missing", "cluster: {brokers: 3, zones: 2}\nclient.zone: c\n", `client.zone "c" is not a zone of this cluster (cluster.zones 2: a, b)`),
		runFile("file: zones", "isolate on one zone", "cluster: {brokers: 3}\nfaults: [{type: zone.isolate, zone: a, delay.ms: 1000}]\n", "fault zone.isolate needs a cluster in zones"),
		runFile("file: zones", "zone link below one batch", "cluster: {brokers: 3, zones: 3}\nnetwork: {zones: {bandwidth: 0.001}}\n", "network.zones.bandwidth 0.001 Mbit/s cannot carry one batch"),
		runFile("file: zones", "zones with --bootstrap", "cluster: {brokers: 3, zones: 3}\n", "cluster.zones, client.zone and topic.leader.zone lay out an embedded cluster; an existing cluster's zones are real and its own (drop --bootstrap, or --set a matrix axis to a value without zones)"),
		runFile("file: faults", "type unknown", "faults: [{type: broker.explode, at.ms: 1}]\n", "fault type must be one of connection.cut, broker.kill"),
		cmdRow("file: faults", "type typo suggests", ExitUsage, `did you mean "broker.kill"?`, "run", "{td}/fault-typo.yaml"),
		runFile("file: faults", "no type", "faults: [{at.ms: 1}]\n", "fault has no type"),
		runFile("file: faults", "entry a scalar", "faults: [broker.kill]\n", "a fault must be a mapping with keys type"),
		runFile("file: faults", "unknown key", "faults: [{type: broker.kill, at.ms: 1, when: 3}]\n", "unknown key \"when\" in fault"),
		runFile("file: faults", "key of another type", "faults: [{type: broker.kill, every: 3}]\n", "fault broker.kill does not take every"),
		runFile("file: faults", "at.ms negative", "faults: [{type: broker.kill, at.ms: -1}]\n", "fault at.ms must be a number of milliseconds in 0..86400000"),
		runFile("file: faults", "at.ms words", "faults: [{type: broker.kill, at.ms: soon}]\n", "fault at.ms must be a number of milliseconds in 0..86400000"),
		runFile("file: faults", "delay.ms negative", "faults: [{type: broker.pause, at.ms: 1, delay.ms: -1}]\n", "fault delay.ms must be 0 or a number of milliseconds in 1..86400000"),
		runFile("file: faults", "broker zero", "faults: [{type: broker.kill, broker: 0, at.ms: 1}]\n", "fault broker must be a broker id ≥ 1"),
		runFile("file: faults", "broker beyond the cluster", "faults: [{type: broker.kill, broker: 3, at.ms: 1}]\n", "fault broker 3 does not exist"),
		runFile("file: faults", "cut every and at.ms", "faults: [{type: connection.cut, every: 5, at.ms: 10}]\n", "every or at.ms, not both"),
		runFile("file: faults", "cut every negative", "faults: [{type: connection.cut, every: -5}]\n", "fault every must be an integer ≥ 0"),
		runFile("file: faults", "type a list", "faults: [{type: [broker.kill]}]\n", "fault type must be a single value"),
		runFile("file: faults", "matrix fault value unknown type", "matrix:\n  f:\n    - {label: x, faults: [{type: nope}]}\n", "fault type must be one of connection.cut, broker.kill, broker.pause, leader.shutdown, zone.isolate, producer.fence, got \"nope\""),
	)

	// Experiment files: matrix entries.
	add(
		runFile("file: matrix", "axis not a list", "matrix: {linger.ms: 5}\n", `matrix axis "linger.ms" must be a list`),
		runFile("file: matrix", "axis empty", "matrix: {linger.ms: []}\n", `matrix axis "linger.ms" has no values`),
		runFile("file: matrix", "axis value bad", "matrix: {linger.ms: [0, -5]}\n", "linger.ms must be an integer"),
		runFile("file: matrix", "axis value a word", "matrix: {acks: [all, most]}\n", "acks must be one of"),
		runFile("file: matrix", "duplicate values", "matrix: {linger.ms: [5, 5]}\n", "duplicate value \"5\" in matrix axis \"linger.ms\""),
		runFile("file: matrix", "two axes set the same key", "matrix:\n  linger.ms: [0, 5]\n  l:\n    - {label: a, linger.ms: 1}\n", "is also set inside a value of axis"),
		runFile("file: matrix", "map value label a list", "matrix:\n  l:\n    - {label: [a], linger.ms: 1}\n", "label of a matrix value must be non-empty text"),
		runFile("file: matrix", "map value unknown key", "matrix:\n  l:\n    - {label: a, lingr.ms: 1}\n", "unknown key \"lingr.ms\" in matrix value; did you mean \"linger.ms\"?"),
		runFile("file: matrix", "map value bad value", "matrix:\n  l:\n    - {label: a, linger.ms: x}\n", "linger.ms must be an integer"),
		runFile("file: matrix", "duplicate labels", "matrix:\n  l:\n    - {label: a, linger.ms: 1}\n    - {label: a, linger.ms: 2}\n", "duplicate value \"a\" in matrix axis \"l\""),
		runFile("file: matrix", "nested list value", "matrix: {linger.ms: [[0, 5]]}\n", "a value of matrix axis \"linger.ms\" must be a single value"),
		runFile("file: matrix", "too many scenarios", "matrix:\n  linger.ms: [0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100]\n  batch.size: [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,63,64,65,66,67,68,69,70,71,72,73,74,75,76,77,78,79,80,81,82,83,84,85,86,87,88,89,90,91,92,93,94,95,96,97,98,99,100]\n", "matrix expands to 10100 scenarios, more than the limit"),
		franzFile("file: matrix", "contradiction in one scenario", "producer: {enable.idempotence: true}\nmatrix: {acks: [all, 1]}\n", "requires acks=all"),
		runFile("file: matrix", "brokers axis breaks RF", "topic: {replication.factor: 2}\nmatrix: {cluster.brokers: [1, 2]}\n", "exceeds brokers"),
		runFile("file: matrix", "axis a map", "matrix: {linger.ms: {a: 1}}\n", "matrix axis \"linger.ms\" must be a list of values"),
	)

	// Experiment files: compare entries.
	add(
		runFile("file: compare", "axis unknown", "matrix: {linger.ms: [0, 5]}\ncompare: [{axis: batch.size}]\n", "compare axis \"batch.size\" is not a matrix axis"),
		cmdRow("file: compare", "axis typo suggests", ExitUsage, "did you mean \"linger.ms\"?", "run", "{td}/compare-axis-typo.yaml"),
		runFile("file: compare", "entry a scalar", "matrix: {linger.ms: [0, 5]}\ncompare: [linger.ms]\n", "a compare entry must be a mapping"),
		runFile("file: compare", "entry empty", "matrix: {linger.ms: [0, 5]}\ncompare: [{}]\n", "a compare entry must be a mapping"),
		runFile("file: compare", "unknown key", "matrix: {linger.ms: [0, 5]}\ncompare: [{axis: linger.ms, against: 0}]\n", `unknown key "against" in compare entry`),
		runFile("file: compare", "axis and candidate", "matrix: {linger.ms: [0, 5]}\ncompare: [{axis: linger.ms, candidate: linger.ms=5}]\n", "not both"),
		runFile("file: compare", "baseline only", "matrix: {linger.ms: [0, 5]}\ncompare: [{baseline: linger.ms=0}]\n", "needs axis: KEY, or both baseline: and candidate:"),
		runFile("file: compare", "candidate unknown", "matrix: {linger.ms: [0, 5]}\ncompare: [{baseline: linger.ms=0, candidate: linger.ms=7}]\n", "compare candidate \"linger.ms=7\" is not a scenario of this experiment; did you mean \"linger.ms=0\"?"),
		runFile("file: compare", "baseline value unknown", "matrix: {linger.ms: [0, 5]}\ncompare: [{axis: linger.ms, baseline: 9}]\n", "compare baseline \"9\" is not a value of axis \"linger.ms\""),
		runFile("file: compare", "metric unknown", "matrix: {linger.ms: [0, 5]}\ncompare: [{axis: linger.ms, metric: speed}]\n", "compare metric must be one of"),
		runFile("file: compare", "compare without a matrix", "compare: [{axis: linger.ms}]\n", "compare axis \"linger.ms\" is not a matrix axis"),
		runFile("file: compare", "metric a list", "matrix: {linger.ms: [0, 5]}\ncompare: [{axis: linger.ms, metric: [throughput]}]\n", "compare metric must be a single value"),
	)

	// Experiment files: encodings.
	add(
		cmdRow("file: encoding", "invalid UTF-8 in a value", ExitUsage, "UTF-8", "run", "{td}/invalid-utf8-value.yaml"),
		cmdRow("file: encoding", "invalid UTF-8 in a key", ExitUsage, "UTF-8", "run", "{td}/invalid-utf8-key.yaml"),
		rawFile("file: encoding", "NUL byte in name", "name: \"a\\0b\"\nclient: java\n", "name"),
	)

	// prodlab perf: flags.
	add(
		cmdRow("perf flags", "nothing given", ExitUsage, "--topic is required", "perf"),
		perfRow("perf flags", "empty topic", "--topic is required", "--topic", ""),
		perfRow("perf flags", "negative records", "--num-records should be greater than zero", "--num-records", "-1"),
		perfRow("perf flags", "records a word", "invalid argument", "--num-records", "many"),
		perfRow("perf flags", "record size zero", "--record-size should be greater than zero", "--record-size", "0"),
		perfRow("perf flags", "record size negative", "--record-size should be greater than zero", "--record-size", "-100"),
		perfRow("perf flags", "record size a word", "invalid argument", "--record-size", "big"),
		perfRow("perf flags", "throughput -2", "--throughput must be", "--throughput", "-2"),
		perfRow("perf flags", "throughput a word", "invalid argument", "--throughput", "max"),
		perfRow("perf flags", "warm-up negative", "--warmup-records must not be negative", "--warmup-records", "-1"),
		perfRow("perf flags", "partitions zero", "--partitions must be at least 1", "--partitions", "0"),
		perfRow("perf flags", "timeout zero", "--timeout must be positive", "--timeout", "0s"),
		perfRow("perf flags", "timeout without unit", "invalid argument", "--timeout", "30"),
		perfRow("perf flags", "client unknown", "--client must be", "--client", "sarama"),
		perfRow("perf flags", "client version words", "--client must be", "--client", "java@newest"),
		perfRow("perf flags", "payload kind unknown", "--payload must be", "--payload", "zeros"),
		cmdRow("perf flags", "payload file missing", ExitUsage, "--payload-file: open /nonexistent/p.txt", "perf", "--topic", "t", "--num-records", "1", "--payload-file", "/nonexistent/p.txt"),
		perfRow("perf flags", "transaction duration negative", "--transaction-duration-ms", "--transaction-duration-ms", "-5"),
		perfRow("perf flags", "print-metrics with a value", "invalid argument", "--print-metrics=sure"),
		perfRow("perf flags", "stray argument", "unexpected argument", "acks=all"),
		perfRow("perf flags", "config file missing", "--producer.config: producer config: open /nonexistent/client.properties", "--producer.config", "/nonexistent/client.properties"),
		perfRow("perf flags", "config file is a directory", "--producer.config: producer config: read /tmp: is a directory", "--producer.config", "/tmp"),
		cmdRow("perf flags", "payload file empty", ExitUsage, "empty.txt is empty", "perf", "--topic", "t", "--num-records", "1", "--payload-file", "{td}/empty.txt"),
		cmdRow("perf flags", "payload file /dev/null", ExitUsage, "--payload-file: /dev/null: not a regular file (a character device)", "perf", "--topic", "t", "--num-records", "1", "--payload-file", "/dev/null"),
		perfRow("perf flags", "record size and payload file", "not both", "--payload-file", "{td}/acks7.properties"),
		cmdRow("perf flags", "payload kind with payload file", ExitUsage, "cannot be combined with --payload-file", "perf", "--topic", "t", "--num-records", "1", "--payload-file", "{td}/acks7.properties", "--payload", "json"),
		cmdRow("perf flags", "bad delimiter", ExitUsage, "--payload-delimiter", "perf", "--topic", "t", "--num-records", "1", "--payload-file", "{td}/acks7.properties", "--payload-delimiter", "("),
	)

	// prodlab perf: bootstrap syntax (item 8).
	for _, bs := range []struct{ in, want string }{
		{"foo", `--bootstrap-server: address "foo" has no port: write HOST:PORT, e.g. foo:9092`},
		{"127.0.0.1", "e.g. 127.0.0.1:9092"},
		{"127.0.0.1:99999", `port "99999" must be a number in 1..65535`},
		{",", "--bootstrap-server: address 1 of \",\" is empty"},
		{"a:1,,b:2", "address 2 of"},
		{"h:0", "1..65535"},
		{"::1:9092", "in brackets"},
		{"[127.0.0.1]:9092", "brackets are for IPv6 only"},
		{"kafka://h:9092", "drop the scheme"},
	} {
		add(ownBootstrap(perfRow("perf --bootstrap-server", bs.in, bs.want, "--bootstrap-server", bs.in)))
	}
	add(ownBootstrap(perfRow("perf --bootstrap-server", "bootstrap.servers property ,", "bootstrap.servers: address 1", "--producer-props", "bootstrap.servers=,")))

	// prodlab perf: producer properties, checked as run checks them, and
	// record sizes that cannot fit (item 8).
	add(
		perfRow("perf properties", "acks=2", `--producer-props acks=2: acks must be one of 0, 1, -1, all, got "2"`, "--producer-props", "acks=2"),
		perfRow("perf properties", "acks=", "acks must be one of", "--producer-props", "acks="),
		perfRow("perf properties", "typo", `did you mean "linger.ms"?`, "--producer-props", "lingr.ms=5"),
		perfRow("perf properties", "not NAME=VALUE", "not NAME=VALUE", "--producer-props", "acks"),
		perfRow("perf properties", "empty name", "not NAME=VALUE", "--producer-props", "=5"),
		perfRow("perf properties", "batch.size words", "batch.size must be an integer", "--producer-props", "batch.size=big"),
		perfRow("perf properties", "linger.ms negative", "linger.ms must be an integer", "--producer-props", "linger.ms=-1"),
		perfRow("perf properties", "compression brotli", "compression.type must be one of", "--producer-props", "compression.type=brotli"),
		perfRow("perf properties", "idempotence yes", "enable.idempotence must be true or false", "--producer-props", "enable.idempotence=yes"),
		perfRow("perf properties", "consumer property", "--producer-props group.id=g: unknown producer property \"group.id\"", "--producer-props", "group.id=g"),
		perfRow("perf properties", "franz-go cannot honour", "not supported by client franz-go", "--client", "franz-go", "--producer-props", "ssl.keystore.location=/tmp/client.jks"),
		perfRow("perf properties", "java cannot honour max.buffered.records", "max.buffered.records is not supported by client java", "--producer-props", "max.buffered.records=5"),
		perfRow("perf properties", "bad value in config file", "acks=7: acks must be one of", "--producer.config", "{td}/acks7.properties"),
		cmdRow("perf record size", "100 MiB record", ExitUsage, "raise it with --producer-props max.request.size=104857682",
			"perf", "--topic", "t", "--num-records", "1", "--record-size", "104857600"),
		cmdRow("perf record size", "1 MiB record", ExitUsage, "max.request.size is 1048576 bytes",
			"perf", "--topic", "t", "--num-records", "1", "--record-size", "1048576"),
		cmdRow("perf record size", "franz-go 2 MB record", ExitUsage, "--producer-props batch.size=2000082",
			"perf", "--client", "franz-go", "--topic", "t", "--num-records", "1", "--record-size", "2000000"),
		ownBootstrap(cmdRow("perf record size", "embedded broker too small", ExitUsage, "message.max.bytes 1048588",
			"perf", "--topic", "t", "--num-records", "1", "--record-size", "2000000", "--producer-props", "max.request.size=4000000")),
		cmdRow("perf record size", "max.request.size lowered", ExitUsage, "max.request.size is 100 bytes",
			"perf", "--topic", "t", "--num-records", "1", "--record-size", "100", "--producer-props", "max.request.size=100"),
		badInput{kind: "perf record size", name: "payload file with a 2 MB payload", args: []string{"perf", "--topic", "t", "--num-records", "1", "--payload-file", "{exp}"},
			yaml: strings.Repeat("x", 2_000_000) + "\n", code: ExitUsage, want: "a record of 2000000 bytes does not fit in one request"},
	)

	// prodlab report and compare: run directories and flags.
	add(
		cmdRow("report", "no run directory", ExitUsage, "requires at least 1 arg", "report"),
		cmdRow("report", "two run directories that do not exist", ExitUsage, "read run: stat a: no such file or directory", "report", "a", "b"),
		cmdRow("report", "missing directory", ExitUsage, "read results", "report", "/nonexistent/run"),
		cmdRow("report", "directory without results", ExitUsage, "read results", "report", "{td}"),
		cmdRow("report", "a file instead of a directory", ExitUsage, "binary.yaml is a file, not a run directory", "report", "{td}/binary.yaml"),
		cmdRow("report", "unknown format", ExitUsage, "unknown format \"pdf\"", "report", "{td}", "--format", "pdf"),
		cmdRow("report", "html with a value", ExitUsage, "invalid argument", "report", "{td}", "--html=please"),
		cmdRow("report", "unknown flag", ExitUsage, "unknown flag", "report", "{td}", "--open"),
		cmdRow("compare", "one run", ExitUsage, "accepts between 2 and 3 arg", "compare", "a"),
		cmdRow("compare", "four runs", ExitUsage, "accepts between 2 and 3 arg", "compare", "a", "b", "c", "d"),
		cmdRow("compare", "missing runs", ExitUsage, "read results: open /nonexistent/a", "compare", "/nonexistent/a", "/nonexistent/b"),
		cmdRow("compare", "confidence 1", ExitUsage, "--confidence must be in (0.5, 1)", "compare", "a", "b", "--confidence", "1"),
		cmdRow("compare", "confidence 0.3", ExitUsage, "--confidence must be in (0.5, 1)", "compare", "a", "b", "--confidence", "0.3"),
		cmdRow("compare", "confidence words", ExitUsage, "invalid argument", "compare", "a", "b", "--confidence", "high"),
		cmdRow("compare", "equivalence 0", ExitUsage, "--equivalence must be in (0, 1)", "compare", "a", "b", "--equivalence", "0"),
		cmdRow("compare", "equivalence 5", ExitUsage, "--equivalence must be in (0, 1)", "compare", "a", "b", "--equivalence", "5"),
		cmdRow("compare", "unknown format", ExitUsage, `unknown --format "pdf"`, "compare", "a", "b", "--format", "pdf"),
		cmdRow("compare", "scenarios with one id", ExitUsage, "--scenarios", "compare", "{td}", "x", "--scenarios"),
		cmdRow("compare", "scenarios in a missing run", ExitUsage, "read results: open /nonexistent/a", "compare", "/nonexistent/a", "x", "y", "--scenarios"),
	)

	// prodlab cluster.
	add(
		cmdRow("cluster", "unknown subcommand", ExitUsage, "unknown command", "cluster", "start"),
		cmdRow("cluster", "trogdor up with a release before 3.0", ExitUsage, "release 2.8.2 is older than 3.0", "trogdor", "up", "--release", "2.8.2", "--dir", "{td}/fleet"),
		cmdRow("cluster", "trogdor up with a release that is no number", ExitUsage, `release "latest" is not a Kafka release number`, "trogdor", "up", "--release", "latest", "--dir", "{td}/fleet"),
		cmdRow("cluster", "up with zero brokers", ExitUsage, "--brokers must be between 1 and 9, got 0", "cluster", "up", "--brokers", "0"),
		cmdRow("cluster", "up with ten brokers", ExitUsage, "--brokers must be between 1 and 9, got 10", "cluster", "up", "--brokers", "10"),
		cmdRow("cluster", "up with negative brokers", ExitUsage, "--brokers must be between 1 and 9", "cluster", "up", "--brokers", "-1"),
		cmdRow("cluster", "up with brokers a word", ExitUsage, "invalid argument", "cluster", "up", "--brokers", "three"),
		cmdRow("cluster", "up with an argument", ExitUsage, "unknown command", "cluster", "up", "now"),
		cmdRow("cluster", "status with an argument", ExitUsage, "unknown command", "cluster", "status", "x"),
		cmdRow("cluster", "down with an argument", ExitUsage, "unknown command", "cluster", "down", "x"),
		cmdRow("cluster", "up unknown flag", ExitUsage, "unknown flag: --nodes", "cluster", "up", "--nodes", "3"),
		fromMaven(cmdRow("cluster", "up with kafka 99.0.0", ExitUsage, "99.0.0", "cluster", "up", "--kafka", "99.0.0")),
		cmdRow("cluster", "up with an empty kafka dir", ExitUsage, "--kafka", "cluster", "up", "--kafka", "{td}"),
	)
	return rows
}

// embedded marks a row about the embedded cluster (its Kafka release or
// distribution), which an external cluster never checks: it gets no guard
// bootstrap, and the worker-jar guard stops an accepted Java run instead.
func embedded(r badInput) badInput {
	r.ownBootstrap = true
	r.maven = true
	return r
}

// honestEdges are the rows of issue 21 ("Honest edges").
func honestEdges() []badInput {
	return slices.Concat(secretRows(), contradictionRows(), hostileRows(), messageRows(), perfRunRows(), capacityRows(), adviseRows(), specRound2Rows())
}

// adviseRows are advise: sections and `prodlab advise` command lines that
// cannot run (issue 24).
func adviseRows() []badInput {
	advise := func(name, body, want string, args ...string) badInput {
		return badInput{kind: "advise", name: name, args: append([]string{"advise", "{exp}"}, args...), yaml: javaBase + capacitySteady + body, code: ExitUsage, want: want}
	}
	space := "advise:\n  space: {linger.ms: [0, 5]}\n"
	return []badInput{
		advise("SLO metric that does not exist", "advise: {slo: {p98.ms: 50}}\n", `unknown SLO "p98.ms" in advise.slo`),
		advise("rate objective without a rate", "advise: {objective: cpu.total}\n", "advise.objective cpu.total is judged at a fixed offered rate: set workload.rate"),
		advise("unknown objective", "advise: {objective: cpu.totl}\n", "did you mean \"cpu.total\""),
		advise("in-flight the idempotent client refuses", "producer: {acks: all}\nadvise:\n  space: {max.in.flight.requests.per.connection: [5, 6]}\n",
			"max.in.flight.requests.per.connection 6 is above 5, the most an idempotent producer allows"),
		advise("constraint in the space", "producer: {linger.ms: 5}\n"+space, "linger.ms is a constraint (linger.ms=5, line 4)"),
		advise("current contradicts a constraint", "producer: {acks: all}\nadvise: {current: {acks: 1}}\n", "the current settings set acks=1, but producer: fixes acks=all"),
		advise("budget short of two candidates", "advise: {space: {linger.ms: [0, 5]}, budget: 5s}\n", "advise.budget 5s cannot fit a ceiling probe of each of 3 candidates"),
		advise("unknown property in the current file", space, `unknown producer setting "bufer.memory" in the current settings; did you mean "buffer.memory"?`,
			"--current", "{td}/current-typo.properties"),
		advise("current file missing", space, "advise.current: open /nonexistent/p.properties", "--current", "/nonexistent/p.properties"),
		advise("current file a FIFO", space, "advise.current: ", "--current", "{fifo}"),
		advise("current file /dev/zero", space, "advise.current: ", "--current", "/dev/zero"),
		advise("no advise section", "matrix: {linger.ms: [0, 5]}\n", "has no advise: section"),
		advise("a matrix beside it", space+"matrix: {batch.size: [16384]}\n", "advise searches its own space of producer settings"),
		{kind: "advise", name: "no file", args: []string{"advise"}, code: ExitUsage, want: "accepts 1 arg(s), received 0"},
	}
}

// capacitySteady is a steady-state workload a capacity section can probe.
const capacitySteady = "workload: {duration.s: 2, warmup.s: 0.5}\n"

// capacityRows are capacity: sections that cannot run (issue 23).
func capacityRows() []badInput {
	return []badInput{
		runFile("capacity", "with workload.rate", capacitySteady+"capacity: {slo: {p99.ms: 100}}\nmatrix: {rate: [1000, 2000]}\n", "workload.rate cannot be set with a capacity section"),
		runFile("capacity", "with trials: 5", capacitySteady+"trials: 5\ncapacity: {slo: {p99.ms: 100}}\n", "trials does not apply to a capacity search"),
		runFile("capacity", "with trials: auto", capacitySteady+"trials: auto\ncapacity: {slo: {p99.ms: 100}}\n", "trials does not apply to a capacity search"),
		runFile("capacity", "with budget", capacitySteady+"budget: 5m\ncapacity: {slo: {p99.ms: 100}}\n", "budget does not apply to a capacity search"),
		runFile("capacity", "SLO on an unknown percentile", capacitySteady+"capacity: {slo: {p98.ms: 100}}\n", `unknown key "p98.ms" in capacity.slo; did you mean "p95.ms"?`),
		runFile("capacity", "SLO of 0 ms", capacitySteady+"capacity: {slo: {p99.ms: 0}}\n", "capacity.slo.p99.ms must be a number of milliseconds in 0.01..3600000"),
		runFile("capacity", "keep.up 0", capacitySteady+"capacity: {keep.up: 0}\n", "capacity.keep.up must be a share of the offered rate in 0.5..1"),
		runFile("capacity", "keep.up 1.5", capacitySteady+"capacity: {keep.up: 1.5}\n", "capacity.keep.up must be a share of the offered rate in 0.5..1"),
		runFile("capacity", "precision 1", capacitySteady+"capacity: {precision: 1}\n", "capacity.precision must be a relative half-width in 0.001..1 (1 excluded)"),
		runFile("capacity", "budget short of two probes", capacitySteady+"capacity: {budget: 4s}\nmatrix: {linger.ms: [0, 5]}\n", "capacity.budget 4s cannot fit two probes of each of 2 scenarios"),
		runFile("capacity", "budget not a duration", capacitySteady+"capacity: {budget: soon}\n", "capacity.budget must be a duration like 10m"),
		runFile("capacity", "a burst", "capacity: {slo: {p99.ms: 100}}\n", "a capacity search probes steady-state windows: set workload.duration.s"),
		runFile("capacity", "SLO as a matrix axis", capacitySteady+"capacity: {slo: {p99.ms: 100}}\nmatrix: {capacity.slo.p99.ms: [10, 20]}\n", "is a setting of the capacity search, not a matrix axis"),
		runFile("capacity", "compare a per-trial metric", capacitySteady+"capacity: {slo: {p99.ms: 100}}\nmatrix: {linger.ms: [0, 5]}\ncompare: [{axis: linger.ms, metric: p99}]\n", "a capacity run compares sustainable rates (metric: sustainable)"),
		runFile("capacity", "metric sustainable without capacity", capacitySteady+"matrix: {linger.ms: [0, 5]}\ncompare: [{axis: linger.ms, metric: sustainable}]\n", "metric sustainable needs a capacity: section"),
		runFile("capacity", "unknown key", capacitySteady+"capacity: {keepup: 0.9}\n", `unknown key "keepup" in capacity; did you mean "keep.up"?`),
		runFile("capacity", "a rate axis of 0", capacitySteady+"capacity: {slo: {p99.ms: 100}}\nmatrix: {rate: [0], linger.ms: [0, 5]}\n", "exp.yaml:5:10: workload.rate cannot be set with a capacity section"),
		runFile("capacity", "slo a number", capacitySteady+"capacity: {slo: 100}\n", "capacity.slo must be a mapping of p50.ms, p95.ms, p99.ms, p99.9.ms"),
	}
}

// perfRunRows are perf inputs run refuses up front and perf used to
// start a cluster for (issue 21, item 2).
func perfRunRows() []badInput {
	return []badInput{
		fromMaven(perfRow("perf like run", "java@2.0.0", "client java@2.0.0: kafka-clients 2.0.0 is not supported", "--client", "java@2.0.0")),
		perfRow("perf like run", "100000 partitions", "--partitions must be at most 9999 here, got 100000", "--partitions", "100000"),
		perfRow("perf like run", "json payload of 50 bytes", "--record-size 50 is below the json payload's minimum of 100 bytes", "--record-size", "50", "--payload", "json"),
		perfRow("perf like run", "throughput NaN", "--throughput must be a positive number of records/s, or -1 for no limit, got NaN", "--throughput", "NaN"),
		perfRow("perf like run", "throughput +Inf", "got +Inf", "--throughput", "+Inf"),
		perfRow("perf like run", "transactional id with acks=1", "--transactional-id: transactional.id requires idempotence, which requires acks=all", "--transactional-id", "tx", "--producer-props", "acks=1"),
		perfRow("perf like run", "transactional id without idempotence", "transactional.id requires idempotence, but enable.idempotence=false", "--transactional-id", "tx", "--producer-props", "enable.idempotence=false"),
		perfRow("perf like run", "topic name with a slash", `--topic: topic name "a/b" holds '/'`, "--topic", "a/b"),
		perfRow("perf like run", "topic name of 250 characters", "is 250 characters long; Kafka allows at most 249", "--topic", strings.Repeat("t", 250)),
		perfRow("perf like run", "topic name ..", `topic name ".." is not allowed`, "--topic", ".."),
		runFile("perf like run", "run: transactional id with acks=1", "producer: {transactional.id: tx, acks: 1}\n", "transactional.id requires idempotence, which requires acks=all (or -1), got acks=1"),
	}
}

// messageRows are inputs whose refusal used to say the wrong thing (issue
// 21, item 4).
func messageRows() []badInput {
	return []badInput{
		runSet("workload.keys short form, bad value", "workload.keys.distribution must be one of", "workload.keys=gaussian"),
		runFile("messages", "keys a list", "workload: {keys: [a]}\n", "workload.keys must be a distribution name (workload.keys: uniform) or a mapping of distribution, count"),
		cmdRow("messages", "--trogdor-nodes with a blank", ExitUsage, `--trogdor-nodes a b: trogdor.nodes: "a b" is not an agent name`, "run", "batching", "--trogdor", "http://127.0.0.1:8889", "--trogdor-nodes", "a b"),
		perfRow("messages", "--producer.config binary", "not a text properties file (UTF-8)", "--producer.config", "{td}/binary.yaml"),
		runFile("messages", "merge key of a scalar", "workload: {<<: 5}\n", "a merge key (<<) must name a mapping"),
		runFile("messages", "merge key brings a bad key", "producer: &p {linger.ms: 5}\nworkload: {<<: *p}\n", `unknown key "linger.ms" in workload`),
	}
}

// secretRows are inputs holding a password that messages must not show (issue 21, item 5).
func secretRows() []badInput {
	return []badInput{
		hiding("s3cr3t", ownBootstrap(cmdRow("secrets in errors", "--bootstrap user:pass@", ExitUsage, `--bootstrap: address "[hidden]@host:9092" holds credentials`, "run", "replication", "--bootstrap", "user:s3cr3t@host:9092"))),
		hiding("s3cr3t", ownBootstrap(cmdRow("secrets in errors", "--bootstrap list with user:pass@", ExitUsage, `address 2 of "a:1,,[hidden]@host:9092" is empty`, "run", "replication", "--bootstrap", "a:1,,user:s3cr3t@host:9092"))),
		hiding("s3cr3t", ownBootstrap(perfRow("secrets in errors", "--bootstrap-server user:pass@", `--bootstrap-server: address "[hidden]@host:9092"`, "--bootstrap-server", "user:s3cr3t@host:9092"))),
		hiding("s3cr3t", ownBootstrap(perfRow("secrets in errors", "bootstrap.servers user:pass@", `bootstrap.servers: address "[hidden]@host:9092"`, "--producer-props", "bootstrap.servers=user:s3cr3t@host:9092"))),
		hiding("s3cr3t", cmdRow("secrets in errors", "--trogdor user:pass@ without a port", ExitUsage, `got "http://[hidden]@host"`, "run", "batching", "--trogdor", "http://user:s3cr3t@host")),
		hiding("s3cr3t", cmdRow("secrets in errors", "--trogdor user:pass@ with a path", ExitUsage, `got "http://[hidden]@host:1/x"`, "run", "batching", "--trogdor", "http://user:s3cr3t@host:1/x")),
		hiding("s3cr3t", embedded(cmdRow("secrets in errors", "--trogdor user:pass@ unreachable", ExitUsage, "trogdor coordinator http://[hidden]@127.0.0.1:1", "run", "batching", "--trogdor", "http://user:s3cr3t@127.0.0.1:1"))),
		hiding("s3cr3t", runFile("secrets in errors", "trogdor.coordinator with user:pass@", "trogdor: {coordinator: \"http://user:s3cr3t@coord\"}\n", `got "http://[hidden]@coord"`)),
	}
}

// contradictionRows are settings that contradict each other, once resolved silently (issue 21, item 1).
func contradictionRows() []badInput {
	return []badInput{
		runFile("contradictions", "warmup.s on a burst", "workload: {records: 1000, warmup.s: 2}\n", "workload.warmup.s (2) applies to steady-state trials"),
		runFile("contradictions", "warmup.records equal to records", "workload: {records: 1000, warmup.records: 1000}\n", "workload.warmup.records (1000) must be fewer than workload.records (1000)"),
		runFile("contradictions", "security.protocol under cluster.security", "cluster: {security: ssl}\nproducer: {security.protocol: PLAINTEXT}\n", "producer setting security.protocol is set by cluster.security=ssl"),
		runFile("contradictions", "sasl.mechanism under cluster.security", "cluster: {security: sasl_plaintext}\nproducer: {sasl.mechanism: PLAIN}\n", "producer setting sasl.mechanism is set by cluster.security=sasl_plaintext"),
		hiding("s3cr3t", runFile("contradictions", "sasl.jaas.config under cluster.security", "cluster: {security: sasl_ssl}\nproducer: {sasl.jaas.config: \"x required password=s3cr3t;\"}\n", "producer setting sasl.jaas.config is set by cluster.security=sasl_ssl")),
		franzFile("contradictions", "franz-go 6 in flight, idempotence by default", "producer: {max.in.flight.requests.per.connection: 6}\n", "max.in.flight.requests.per.connection=6 is above 5, the most client franz-go's idempotent producer allows"),
		franzFile("contradictions", "franz-go 3 in flight, idempotence by default", "producer: {max.in.flight.requests.per.connection: 3}\n", "max.in.flight.requests.per.connection=3 with idempotence (on by default) is not supported by client franz-go"),
		// A setting the scenario's client does not have, in the other
		// client's words: refused naming the client and its nearest setting.
		runFile("contradictions", "librdkafka setting for java", "producer: {batch.num.messages: 100}\n", "producer property batch.num.messages is not supported by client java (it is librdkafka's); its nearest setting is batch.size"),
		rawFile("contradictions", "java setting for librdkafka", "name: bad\nclient: librdkafka\nproducer: {buffer.memory: 1000000}\n", "producer property buffer.memory is not supported by client librdkafka; its nearest setting is queue.buffering.max.kbytes"),
		rawFile("contradictions", "librdkafka release not bundled", "name: bad\nclient: librdkafka@2.3.0\n", "bundles librdkafka 2.11.1, and only that release runs"),
		runFile("contradictions", "compare baseline is candidate", "matrix: {linger.ms: [0, 5]}\ncompare: [{baseline: linger.ms=0, candidate: linger.ms=0}]\n", `compare candidate "linger.ms=0" is its baseline`),
		runFile("contradictions", "compare axis of one value", "matrix: {linger.ms: [0], batch.size: [1000, 2000]}\ncompare: [{axis: linger.ms}]\n", `compare axis "linger.ms" has one value`),
		runFile("contradictions", "matrix trials", "matrix: {trials: [1, 2]}\n", `"trials" is a setting of the whole run, not a matrix axis`),
		runFile("contradictions", "matrix name", "matrix: {name: [a, b]}\n", `"name" is a setting of the whole run, not a matrix axis`),
		runFile("contradictions", "matrix value sets warmup", "matrix:\n  w:\n    - {label: a, warmup: 1}\n    - {label: b, warmup: 2}\n", `"warmup" is a setting of the whole run`),
		runFile("contradictions", "broker.pause delay.ms 0", "faults: [{type: broker.pause, delay.ms: 0}]\n", "fault broker.pause delay.ms must be above 0"),
		runFile("contradictions", "broker.kill delay.ms 0", "faults: [{type: broker.kill, delay.ms: 0}]\n", "fault broker.kill delay.ms must be above 0"),
		cmdRow("contradictions", "--resume --dry-run on no run", ExitUsage, "holds no run to continue", "run", "batching", "--resume", "--dry-run", "--out", "{td}"),
	}
}

// hostileRows are files built to hang or flood prodlab (issue 21, item 3).
func hostileRows() []badInput {
	return []badInput{
		cmdRow("file: hostile", "/dev/zero", ExitUsage, "/dev/zero: not a regular file (a character device)", "run", "/dev/zero"),
		cmdRow("file: hostile", "/dev/urandom", ExitUsage, "/dev/urandom: not a regular file", "run", "/dev/urandom"),
		cmdRow("file: hostile", "a FIFO", ExitUsage, "not a regular file (a FIFO)", "run", "{fifo}"),
		perfRow("file: hostile", "--producer.config a FIFO", "--producer.config: producer config: ", "--producer.config", "{fifo}"),
		perfRow("file: hostile", "--producer.config /dev/zero", "/dev/zero: not a regular file", "--producer.config", "/dev/zero"),
		rawFile("file: hostile", "100,000 nested brackets", javaBase+"description: "+strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000)+"\n", "nesting deeper than 64 levels"),
		rawFile("file: hostile", "100,000 merge keys", javaBase+"producer: &p {linger.ms: 5}\nfaults:\n"+strings.Repeat("- <<: *p\n", 100_000), "more than 20000 lines and list items"),
		rawFile("file: hostile", "larger than 1 MiB", javaBase+"description: "+strings.Repeat("x", 1<<20)+"\n", "file too large"),
	}
}

// TestCacheNotADirectory checks that run and perf refuse a PRODLAB_CACHE
// naming a file before anything starts, blaming the variable rather than
// Maven Central (issue 21, item 2 and 4).
func TestCacheNotADirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(maven.CacheEnv, file)
	t.Setenv("PRODLAB_WORKER_JAR", filepath.Join(t.TempDir(), "no-worker.jar"))
	for _, args := range [][]string{
		{"run", "record-size", "--bootstrap", guardBootstrap},
		{"run", "batching"},
		{"perf", "--topic", "t", "--num-records", "1", "--record-size", "1"},
	} {
		t.Run(args[0]+" "+args[1], func(t *testing.T) {
			code, _, stderr, _, ok := runWithin(args, badInputLimit)
			if !ok {
				proc.KillAll()
				t.Fatalf("still running after %s", badInputLimit)
			}
			want := maven.CacheEnv + "=" + file + ": " + file + " is not a directory"
			if code != ExitUsage || !strings.Contains(stderr, want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, ExitUsage, want)
			}
		})
	}
}

// roundTwoRows are the command-side inputs of issue 46's second round of
// bad input: crafted run directories, perf's payload file and cluster,
// advise's --current, compare's flags, the environment and --out.
func roundTwoRows() []badInput {
	report := func(name, file, content, want string) badInput {
		return badInput{kind: "run directory", name: name, args: []string{"report", "{run}"}, runFiles: map[string]string{file: content}, code: ExitUsage, want: want}
	}
	advise := func(name, body, want string, args ...string) badInput {
		return badInput{kind: "advise, round 2", name: name, args: append([]string{"advise", "{exp}"}, args...), yaml: javaBase + capacitySteady + body, code: ExitUsage, want: want}
	}
	cache := func(r badInput) badInput {
		r.env = map[string]string{maven.CacheEnv: "{tmp}/cache:b"}
		return r
	}
	worker := func(jar string, r badInput) badInput {
		r.env = map[string]string{"PRODLAB_WORKER_JAR": jar}
		return r
	}
	space := "advise:\n  space: {linger.ms: [0, 5]}\n"
	cacheWant := "cache:b holds ':', which splits a Java class path; point " + maven.CacheEnv + " at a directory whose path has none"
	return []badInput{
		// Hangs: files that never end, or never open.
		report("results.jsonl a FIFO", "results.jsonl", fifoFile, "results.jsonl: not a regular file (a FIFO)"),
		report("plan.json a FIFO", "plan.json", fifoFile, "plan.json: not a regular file (a FIFO)"),
		report("environment.json a FIFO", "environment.json", fifoFile, "environment.json: not a regular file (a FIFO)"),
		report("experiment.yaml a FIFO", "experiment.yaml", fifoFile, "experiment.yaml: not a regular file (a FIFO)"),
		{kind: "run directory", name: "resume with experiment.yaml a FIFO", args: []string{"run", "batching", "--out", "{run}", "--resume"},
			runFiles: map[string]string{"experiment.yaml": fifoFile}, code: ExitUsage, want: "experiment.yaml: not a regular file (a FIFO)"},
		{kind: "perf, round 2", name: "--payload-file /dev/zero", args: []string{"perf", "--topic", "t", "--num-records", "10", "--payload-file", "/dev/zero"},
			code: ExitUsage, want: "--payload-file: /dev/zero: not a regular file (a character device)"},
		{kind: "perf, round 2", name: "--payload-file a FIFO", args: []string{"perf", "--topic", "t", "--num-records", "10", "--payload-file", "{fifo}"},
			code: ExitUsage, want: "not a regular file (a FIFO)"},
		franzFile("perf, round 2", "run: workload.payload file:/dev/zero", "workload: {payload: \"file:/dev/zero\"}\n", "/dev/zero: not a regular file (a character device)"),
		ownBootstrap(cmdRow("perf, round 2", "a broker that refuses connections", ExitFailure, "no broker answers at 127.0.0.1:1 (127.0.0.1:1: connection refused)",
			"perf", "--topic", "t", "--num-records", "10", "--record-size", "100", "--bootstrap-server", "127.0.0.1:1")),
		// A password printed: a secret in advise's space names candidates.
		hiding("s3cr3t", advise("sasl.jaas.config in the space", "advise:\n  space: {linger.ms: [0, 5], sasl.jaas.config: [\"x required password=s3cr3t;\", \"y\"]}\n",
			"advise.space.sasl.jaas.config holds a secret", "--dry-run")),
		// Wrong exits: a damaged plan.json or results.jsonl is input, exit 2.
		report("plan.json garbage", "plan.json", "garbage\n", "plan.json: not a prodlab plan (invalid JSON at byte 1"),
		report("plan.json an array", "plan.json", "[1, 2]\n", "plan.json: not a prodlab plan (a JSON array where an object belongs)"),
		report("plan.json nested 100,000 deep", "plan.json", strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000), "plan.json: not a prodlab plan (nested deeper than a JSON decoder follows)"),
		report("plan.json empty", "plan.json", "", "plan.json: not a prodlab plan (empty)"),
		report("plan.json level 5, margin -1", "plan.json", `{"level":5,"margin":-1,"comparisons":[]}`, `plan.json: not a prodlab plan ("level" is 5; a plan's level is in (0, 1), e.g. 0.95 for 95 %)`),
		report("plan.json margin -1", "plan.json", `{"level":0.95,"margin":-1}`, `("margin" is -1; a plan's margin is in (0, 1), e.g. 0.05 for ±5 %)`),
		report("plan.json a comparison without a baseline", "plan.json", `{"level":0.95,"margin":0.05,"comparisons":[{"candidate":"linger.ms=5"}]}`, "comparison 1 names no baseline or no candidate"),
		report("environment.json a string", "environment.json", `"x"`, "environment.json: not a prodlab environment record (a JSON string where an object belongs)"),
		report("results.jsonl of schema 99", "results.jsonl", `{"schema":99,"run":"x"}`+"\n", "results.jsonl line 1 is a record of schema 99; this prodlab reads schemas 1 to 2"),
		{kind: "run directory", name: "compare: plan.json an array", args: []string{"compare", "{run}", "--scenarios", "linger.ms=0", "linger.ms=5"},
			runFiles: map[string]string{"plan.json": "[]"}, code: ExitUsage, want: "plan.json: not a prodlab plan (a JSON array where an object belongs)"},
		// Accepted and then ignored.
		advise("--current without an advise: section", "", "has no advise: section", "--current", "{td}/current-ok.properties"),
		advise("--current setting a key twice", space, "current-twice.properties: line 3 sets acks again (first set on line 1): keep one", "--current", "{td}/current-twice.properties"),
		advise("--current empty", space, "--current is empty", "--current", ""),
		advise("--current with a byte order mark", "producer: {acks: all}\n"+space, "the current settings set acks=1, but producer: fixes acks=all", "--current", "{td}/current-bom.properties"),
		perfRow("perf, round 2", "--producer.config setting a key twice", "line 3 sets acks again (first set on line 1)", "--producer.config", "{td}/current-twice.properties"),
		cmdRow("compare, round 2", "the same run twice", ExitUsage, "are the same run: compare it with another run", "compare", "{run}", "{run}"),
		cmdRow("compare, round 2", "--unpaired without --scenarios", ExitUsage, "--unpaired applies to two scenarios of one run, which are paired by round: add --scenarios", "compare", "{run}", "{run}", "--unpaired"),
		cache(cmdRow("environment", "PRODLAB_CACHE with ':' (run)", ExitUsage, cacheWant, "run", "record-size")),
		cache(perfRow("environment", "PRODLAB_CACHE with ':' (perf)", cacheWant)),
		cache(cmdRow("environment", "PRODLAB_CACHE with ':' (cluster up)", ExitUsage, cacheWant, "cluster", "up")),
		cache(cmdRow("environment", "PRODLAB_CACHE with ':' (trogdor up)", ExitUsage, cacheWant, "trogdor", "up")),
		{kind: "run flags, round 2", name: "--dry-run --out a regular file", args: []string{"run", "batching", "--dry-run", "--out", "{exp}"}, yaml: "x\n",
			code: ExitUsage, want: "is a file, not a directory: name a directory (created if missing)"},
		// Found looking further, category by category.
		cmdRow("run directory", "report of results.jsonl, not its directory", ExitUsage, "results.jsonl is a file, not a run directory: give the directory that holds results.jsonl", "report", "{run}/results.jsonl"),
		worker("{tmp}", cmdRow("environment", "PRODLAB_WORKER_JAR a directory (run)", ExitUsage, "is not a jar file (a directory): point PRODLAB_WORKER_JAR at prodlab-worker.jar", "run", "record-size")),
		worker("{tmp}", perfRow("environment", "PRODLAB_WORKER_JAR a directory (perf)", "is not a jar file (a directory)")),
		worker("{tmp}/a:b.jar", perfRow("environment", "PRODLAB_WORKER_JAR with ':' (perf)", "a:b.jar holds ':', which splits a Java class path")),
		cmdRow("cluster, round 2", "up with an empty --kafka", ExitUsage, "--kafka is empty: give a release such as", "cluster", "up", "--kafka", ""),
		cmdRow("cluster, round 2", "trogdor up with an empty --release", ExitUsage, "--release is empty: give a release such as", "trogdor", "up", "--release", " "),
		{kind: "cluster, round 2", name: "up with --dir a file", args: []string{"cluster", "up", "--dir", "{exp}"}, yaml: "x\n",
			code: ExitUsage, want: "exp.yaml is a file, not a directory: name a directory for the logs"},
		{kind: "run flags, round 2", name: "--out under a regular file", args: []string{"run", "batching", "--out", "{exp}/run"}, yaml: "x\n",
			code: ExitUsage, want: "exp.yaml, which is a file, not a directory"},
	}
}
