package prodlab_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/prodlab/prodlab/internal/trogdor"
)

// Every command shown runs in a test (issue 46): each prodlab command in a
// ```sh, ```bash or ```console block (or an indented code block) of
// README.md and docs/*.md, and every example of every command's --help,
// runs here with a prodlab binary built once, each in a sandbox of its
// own: --dry-run appended where it would start a cluster or producers, as
// shown where it only reads (report, compare, experiments, status, down).
// commandRules decides which; what is not run says why in
// notRunRules, which the test prints and keeps short.
//
// The sandbox holds fixtures under the names the docs use (./my.yaml,
// producer.properties, results/20261122-190000-batching, …), a prodlab
// cache whose Kafka releases resolve without Maven (stub jars), and a PATH
// whose java and mvn only record that they were called: a dry run must
// start no JVM and download nothing. The one JVM a dry run needs, the
// KIP-1269 agent's release check, is answered by the stub and listed; so
// are the Trogdor coordinators a --trogdor URL names, which a dry run
// probes for their agents (stubCoordinator).

// docCommand is a command as a page or a --help shows it.
type docCommand struct {
	where string   // "README.md:41" or "prodlab run --help"
	text  string   // as shown, continuation lines joined, comment dropped
	words []string // its shell words, "prodlab" first
	// redirect is the file stdout goes to (`> batching.csv`), "" for none.
	redirect string
	// want is the exit code the page states in the command's comment
	// ("# exits 2"); 0 when it states none.
	want int
	// output is what a console block shows after the command: each line
	// must appear in what it prints.
	output []string
}

// commandRule says how the commands it matches run: with --dry-run
// appended, as shown, or not at all (notRun says why).
type commandRule struct {
	match  func(words []string) bool
	dryRun bool
	want   int    // the exit code the sandbox gives, when the page states none
	why    string // why want is not 0
	notRun string
	// swap replaces words before the placeholders do, for commands whose
	// stand-ins differ from the usual ones.
	swap map[string]string
}

// commandRules: the first rule that matches a command decides; a command
// no rule matches fails the test.
var commandRules = []commandRule{
	// A fleet's agents run the Java client only (docs/distributed.md), so
	// there the reader's experiment is a Java one.
	{match: hasWord("--trogdor"), dryRun: true, swap: map[string]string{"EXP": "producers", "./my.yaml": "./my-java.yaml"}},
	{match: subcommand("trogdor", "up"), dryRun: true},
	{match: subcommand("cluster", "up"), dryRun: true},
	{match: subcommand("perf"), dryRun: true},
	{match: subcommand("run"), dryRun: true},
	{match: subcommand("advise"), dryRun: true},
	{match: subcommand("cluster", "status"), want: 1, why: "no cluster is up in the sandbox"},
	{match: subcommand("trogdor", "status"), want: 1, why: "no fleet is up in the sandbox"},
	{match: subcommand("cluster", "down")},
	{match: subcommand("trogdor", "down")},
	{match: subcommand("experiments")},
	{match: subcommand("report")},
	{match: subcommand("compare")},
	{match: subcommand("history")},
}

// placeholders are the words the docs write for something of the
// reader's own, with what the sandbox puts in their place.
var placeholders = map[string]string{
	"EXP":                                   "batching",
	"RUN":                                   "results/aa",
	"$(prodlab cluster status --bootstrap)": "127.0.0.1:9092",
	"$(prodlab trogdor status --url)":       "http://127.0.0.1:8889",
}

// stubFleets are the Trogdor coordinators the docs name, with the fleet
// each stands for: the sandbox answers each with a stub on 127.0.0.1
// (stubCoordinator) and gives the command the stub's URL instead.
var stubFleets = map[string]stubFleet{
	// `prodlab trogdor up --agents 2` (and a port-forwarded coordinator).
	"http://127.0.0.1:8889": {agents: []string{"agent-1", "agent-2"}, host: func(string) string { return "127.0.0.1" }},
	"http://coord:8889":     {agents: []string{"load-1", "load-2"}, host: exampleHost},
	// deploy/trogdor/trogdor.json.example's fleet.
	"http://control.example.net:8889": {agents: []string{"load-1", "load-2", "load-3"}, host: exampleHost},
}

// exampleHost is the host name of a load host of the docs' fleets.
func exampleHost(agent string) string { return agent + ".example.net" }

// stubbedFleet is the reason listed for a command run against a stub
// coordinator.
const stubbedFleet = "--trogdor URL: the coordinator a dry run probes for its agents answered by a stub on 127.0.0.1 (status, the probe task, its agents' answers)"

// fixtureFiles are the files the docs name, with the fixture under
// testdata/cmds that stands in for each in the sandbox.
var fixtureFiles = map[string]string{
	"my.yaml":             "my.yaml",
	"my-experiment.yaml":  "my.yaml",
	"my-java.yaml":        "my-java.yaml",
	"workload.yaml":       "workload.yaml",
	"producer.properties": "producer.properties",
	"client.properties":   "client.properties",
	"events.txt":          "events.txt",
}

// maxNotRun bounds the not-run list: it must stay short.
const maxNotRun = 2

func hasWord(w string) func([]string) bool {
	return func(words []string) bool { return slices.Contains(words, w) }
}

// subcommand matches `prodlab NAME…` (path being the subcommand words).
func subcommand(path ...string) func([]string) bool {
	return func(words []string) bool {
		return len(words) > len(path) && slices.Equal(words[1:1+len(path)], path)
	}
}

func ruleFor(words []string) (commandRule, bool) {
	for _, r := range commandRules {
		if r.match(words) {
			return r, true
		}
	}
	return commandRule{}, false
}

// TestDocCommands runs every command the pages and --help show.
func TestDocCommands(t *testing.T) {
	sb := newSandbox(t)
	var cmds []docCommand
	var problems []string
	for _, page := range docPages(t) {
		c, p := pageCommands(t, page)
		cmds, problems = append(cmds, c...), append(problems, p...)
	}
	c, p := helpCommands(t, sb)
	cmds, problems = append(cmds, c...), append(problems, p...)
	for _, p := range problems {
		t.Error(p)
	}
	if len(cmds) < 40 {
		t.Fatalf("found %d commands in the docs and --help; the extraction is broken", len(cmds))
	}
	notRun := map[string][]string{}
	var mu sync.Mutex
	t.Run("cmd", func(t *testing.T) {
		for _, c := range cmds {
			r, ok := ruleFor(c.words)
			if !ok {
				t.Errorf("%s: %s: no rule in commandRules says how to run it", c.where, c.text)
				continue
			}
			if r.notRun != "" {
				notRun[r.notRun] = append(notRun[r.notRun], c.where)
				continue
			}
			t.Run(c.where, func(t *testing.T) {
				t.Parallel()
				for _, why := range runDocCommand(t, sb, c, r) {
					mu.Lock()
					notRun[why] = append(notRun[why], c.where)
					mu.Unlock()
				}
			})
		}
	})
	reasons := make([]string, 0, len(notRun))
	for why := range notRun {
		reasons = append(reasons, why)
	}
	slices.Sort(reasons)
	t.Logf("%d commands; not run, or run with a stub, because:", len(cmds))
	for _, why := range reasons {
		t.Logf("  %s (%d: %s)", why, len(notRun[why]), strings.Join(notRun[why], ", "))
	}
	if n := len(notRun); n > maxNotRun {
		t.Errorf("%d reasons not to run a command (at most %d): add --dry-run to the commands instead", n, maxNotRun)
	}
}

// runDocCommand runs c in a sandbox of its own as r says, and reports
// the stubs it needed (a stub coordinator, the calls stubs answered).
func runDocCommand(t *testing.T, sb *sandbox, c docCommand, r commandRule) (stubbed []string) {
	args := slices.Clone(c.words[1:])
	for i, w := range args {
		if v, ok := r.swap[w]; ok {
			args[i] = v
		} else if v, ok := placeholders[w]; ok {
			args[i] = v
		}
		if u, ok := sb.coordinators[args[i]]; ok {
			args[i] = u
			stubbed = append(stubbed, stubbedFleet)
		}
	}
	if r.dryRun && !slices.Contains(args, "--dry-run") {
		args = append(args, "--dry-run")
	}
	want, why := c.want, ""
	if want == 0 {
		want, why = r.want, r.why
	}
	res := sb.run(t, args, c.redirect)
	shown := c.where + ": " + c.text
	if r.dryRun {
		shown += " (with --dry-run)"
	}
	if res.code != want {
		if why != "" {
			why = " (" + why + ")"
		}
		t.Errorf("%s\nexits %d, want %d%s:\n%s", shown, res.code, want, why, res.output)
	}
	for _, line := range c.output {
		if !strings.Contains(res.output, line) {
			t.Errorf("%s\nprints no line %q as the page shows; it printed:\n%s", shown, line, res.output)
		}
	}
	for _, why := range checkCalls(t, shown, res.calls) {
		if !slices.Contains(stubbed, why) {
			stubbed = append(stubbed, why)
		}
	}
	return stubbed
}

// docPages are README.md and docs/*.md.
func docPages(t *testing.T) []string {
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, pages...)
}

// fence matches a code fence and its language.
var fence = regexp.MustCompile("^\\s*```\\s*([A-Za-z]*)")

// shellLangs are the fence languages whose prodlab lines are commands.
var shellLangs = map[string]bool{"sh": true, "bash": true, "shell": true, "console": true}

// pageCommands extracts the prodlab commands of a page's shell and
// console blocks and indented code blocks; a prodlab command in a block
// of another language is a problem.
func pageCommands(t *testing.T, page string) ([]docCommand, []string) {
	data, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	var cmds []docCommand
	var problems []string
	inFence, lang := false, ""
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if m := fence.FindStringSubmatch(line); m != nil {
			inFence, lang = !inFence, m[1]
			continue
		}
		where := fmt.Sprintf("%s:%d", page, i+1)
		trimmed := strings.TrimSpace(line)
		switch {
		case inFence && lang == "console":
			if !strings.HasPrefix(trimmed, "$ ") {
				if n := len(cmds); n > 0 && trimmed != "" && cmds[n-1].where[:strings.LastIndex(cmds[n-1].where, ":")] == page {
					cmds[n-1].output = append(cmds[n-1].output, trimmed)
				}
				continue
			}
			text, next := joinContinued(lines, i, strings.TrimPrefix(trimmed, "$ "))
			i = next
			cmds = append(cmds, parseShown(where, text, &problems)...)
		case inFence && shellLangs[lang]:
			if !isProdlab(trimmed) {
				continue
			}
			text, next := joinContinued(lines, i, trimmed)
			i = next
			cmds = append(cmds, parseShown(where, text, &problems)...)
		case inFence:
			if isProdlab(trimmed) || isProdlab(strings.TrimPrefix(trimmed, "$ ")) {
				problems = append(problems, fmt.Sprintf("%s: a prodlab command in a ```%s block: fence it ```sh (or ```console, with its output)", where, lang))
			}
		case strings.HasPrefix(line, "    ") && isProdlab(trimmed):
			text, next := joinContinued(lines, i, trimmed)
			i = next
			cmds = append(cmds, parseShown(where, text, &problems)...)
		}
	}
	return cmds, problems
}

// isProdlab reports whether a line is a prodlab command.
func isProdlab(line string) bool {
	for _, p := range []string{"prodlab ", "./bin/prodlab ", "bin/prodlab "} {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return line == "prodlab"
}

// joinContinued joins the lines continued with a trailing backslash from
// lines[i] on, first being lines[i] as already trimmed; it returns the
// command and the index of its last line.
func joinContinued(lines []string, i int, first string) (string, int) {
	text := first
	for strings.HasSuffix(text, `\`) && i+1 < len(lines) {
		i++
		text = strings.TrimSuffix(text, `\`) + " " + strings.TrimSpace(lines[i])
	}
	return text, i
}

// exitComment matches an exit code a command's comment states.
var exitComment = regexp.MustCompile(`\bexits? (?:code )?(\d)\b`)

// parseShown splits a shown command into words and returns it with the
// prodlab commands substituted into it ($(prodlab …)), each one run.
func parseShown(where, text string, problems *[]string) []docCommand {
	words, comment, redirect, err := shellWords(text)
	if err != nil {
		*problems = append(*problems, fmt.Sprintf("%s: %s: %v", where, text, err))
		return nil
	}
	words[0] = "prodlab"
	c := docCommand{where: where, text: text, words: words, redirect: redirect}
	if i := strings.Index(text, " #"); i >= 0 {
		c.text = strings.TrimSpace(text[:i])
	}
	if m := exitComment.FindStringSubmatch(comment); m != nil {
		c.want, _ = strconv.Atoi(m[1])
	}
	cmds := []docCommand{c}
	for _, w := range words {
		if inner, ok := strings.CutPrefix(w, "$("); ok && strings.HasSuffix(inner, ")") {
			cmds = append(cmds, parseShown(where, strings.TrimSuffix(inner, ")"), problems)...)
		}
	}
	return cmds
}

// shellWords splits a command line as sh would, for what the docs write:
// quotes, backslashes, a `> FILE` redirection and a trailing # comment.
// $(…) stays one word, unexpanded.
func shellWords(line string) (words []string, comment, redirect string, err error) {
	var cur strings.Builder
	inWord, quote, depth := false, rune(0), 0
	flush := func() {
		if inWord {
			words = append(words, cur.String())
		}
		cur.Reset()
		inWord = false
	}
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		switch {
		case quote == '\'':
			if r == '\'' {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case quote == '"' && r == '"' && depth == 0:
			quote = 0
		case r == '$' && i+1 < len(rs) && rs[i+1] == '(':
			depth++
			inWord = true
			cur.WriteString("$(")
			i++
		case depth > 0 && r == ')':
			depth--
			cur.WriteRune(r)
		case quote == '"' || depth > 0:
			cur.WriteRune(r)
		case r == '\\' && i+1 < len(rs):
			i++
			cur.WriteRune(rs[i])
			inWord = true
		case r == '\'' || r == '"':
			quote, inWord = r, true
		case r == '#' && !inWord:
			flush()
			return finishWords(words, strings.TrimSpace(string(rs[i+1:])))
		case r == ' ' || r == '\t':
			flush()
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if quote != 0 || depth != 0 {
		return nil, "", "", fmt.Errorf("unterminated quote or $(")
	}
	flush()
	return finishWords(words, "")
}

// finishWords takes a `> FILE` redirection off the end of words.
func finishWords(words []string, comment string) ([]string, string, string, error) {
	redirect := ""
	if n := len(words); n >= 2 && words[n-2] == ">" {
		redirect, words = words[n-1], words[:n-2]
	}
	if len(words) == 0 {
		return nil, "", "", fmt.Errorf("no command")
	}
	return words, comment, redirect, nil
}

// helpCommands walks the command tree through --help and returns every
// command's examples.
func helpCommands(t *testing.T, sb *sandbox) ([]docCommand, []string) {
	var cmds []docCommand
	var problems []string
	var walk func(path []string)
	walk = func(path []string) {
		res := sb.run(t, append(slices.Clone(path), "--help"), "")
		if res.code != 0 {
			problems = append(problems, fmt.Sprintf("prodlab %s --help exits %d:\n%s", strings.Join(path, " "), res.code, res.output))
			return
		}
		help := strings.Join(append(append([]string{"prodlab"}, path...), "--help"), " ")
		examples, subs := helpSections(res.output)
		for i, n := 0, 1; i < len(examples); i, n = i+1, n+1 {
			where := fmt.Sprintf("%s, example %d", help, n)
			text, next := joinContinued(examples, i, strings.TrimSpace(examples[i]))
			i = next
			if !isProdlab(text) {
				problems = append(problems, fmt.Sprintf("%s: example %q is not a prodlab command", where, text))
				continue
			}
			cmds = append(cmds, parseShown(where, text, &problems)...)
		}
		for _, s := range subs {
			if s != "help" && s != "completion" {
				walk(append(slices.Clone(path), s))
			}
		}
	}
	walk(nil)
	return cmds, problems
}

// helpSections reads a cobra help text's Examples lines and its
// subcommands' names.
func helpSections(help string) (examples, subs []string) {
	section := ""
	sc := bufio.NewScanner(strings.NewReader(help))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasSuffix(line, ":") && !strings.HasPrefix(line, " "):
			section = line
		case strings.TrimSpace(line) == "":
			section = ""
		case section == "Examples:":
			examples = append(examples, line)
		case section == "Available Commands:":
			subs = append(subs, strings.Fields(line)[0])
		}
	}
	return examples, subs
}

// stubs are the calls a dry run makes that the sandbox answers with a
// stub, with why; every other java or mvn call fails the command.
var stubs = []struct{ call, reason string }{
	{"java .*dev\\.prodlab\\.agent\\.Agent", "the KIP-1269 agent's release check (a JVM, even in a dry run) answered by a stub"},
	{"prodlab-librdkafka check$", "the librdkafka worker's settings check (a cgo build) answered by a stub"},
}

// checkCalls fails t for every recorded call no stub answers, and
// returns the reasons of those one did.
func checkCalls(t *testing.T, shown string, calls []string) (stubbed []string) {
	t.Helper()
	for _, call := range calls {
		i := slices.IndexFunc(stubs, func(s struct{ call, reason string }) bool {
			return regexp.MustCompile(s.call).MatchString(call)
		})
		if i < 0 {
			t.Errorf("%s\nstarted %q: it must start no JVM and download nothing", shown, call)
		} else if !slices.Contains(stubbed, stubs[i].reason) {
			stubbed = append(stubbed, stubs[i].reason)
		}
	}
	return stubbed
}

// sandbox is where the commands run: a prodlab binary, the fixtures, a
// cache and a PATH that starts no JVM.
type sandbox struct {
	root     string // removed by TestMain
	bin      string
	template string // copied for each command
	repo     string // bench/ and experiments/ are linked from here
	env      []string
	// coordinators maps the coordinator URLs of stubFleets to their
	// stubs' URLs; the stubs are closed by TestMain.
	coordinators map[string]string
	stubs        []*httptest.Server
}

var (
	sandboxOnce sync.Once
	theSandbox  *sandbox
	sandboxErr  error
)

// TestMain removes the sandbox after the tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if theSandbox != nil {
		for _, s := range theSandbox.stubs {
			s.Close()
		}
		os.RemoveAll(theSandbox.root)
	}
	os.Exit(code)
}

// newSandbox builds prodlab and the sandbox once per test binary.
func newSandbox(t *testing.T) *sandbox {
	t.Helper()
	sandboxOnce.Do(func() { theSandbox, sandboxErr = buildSandbox() })
	if sandboxErr != nil {
		t.Fatal(sandboxErr)
	}
	return theSandbox
}

func buildSandbox() (*sandbox, error) {
	root, err := os.MkdirTemp("", "prodlab-cmds-")
	if err != nil {
		return nil, err
	}
	sb := &sandbox{root: root, bin: filepath.Join(root, "prodlab"), template: filepath.Join(root, "work")}
	goTool, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("the go tool is not on PATH: %w", err)
	}
	if out, err := exec.Command(goTool, "build", "-o", sb.bin, "./cmd/prodlab").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go build ./cmd/prodlab: %w\n%s", err, out)
	}
	if sb.repo, err = os.Getwd(); err != nil {
		return nil, err
	}
	for _, step := range []func() error{
		func() error { return fakeTools(filepath.Join(root, "bin")) },
		func() error { return seedCache(filepath.Join(root, "cache")) },
		func() error { return stubBuilds(filepath.Join(root, "build")) },
		func() error { return os.MkdirAll(filepath.Join(root, "home"), 0o755) },
		func() error { return fillWorkDir(sb.template) },
	} {
		if err := step(); err != nil {
			return nil, err
		}
	}
	sb.env = []string{
		"PATH=" + filepath.Join(root, "bin"),
		"HOME=" + filepath.Join(root, "home"),
		"TMPDIR=" + os.TempDir(),
		"PRODLAB_CACHE=" + filepath.Join(root, "cache"),
		"PRODLAB_WORKER_JAR=" + filepath.Join(root, "build", "prodlab-worker.jar"),
		"PRODLAB_AGENT_JAR=" + filepath.Join(root, "build", "prodlab-agent.jar"),
		"PRODLAB_LIBRDKAFKA_WORKER=" + filepath.Join(root, "build", "prodlab-librdkafka"),
	}
	sb.coordinators = map[string]string{}
	for url, f := range stubFleets {
		s := httptest.NewServer(stubCoordinator(f))
		sb.stubs = append(sb.stubs, s)
		sb.coordinators[url] = s.URL
	}
	return sb, nil
}

// stubFleet is a Trogdor fleet a stub coordinator stands for: its agents'
// names and the host of each.
type stubFleet struct {
	agents []string
	host   func(agent string) string
}

// stubCoordinator answers what a dry run asks a Trogdor coordinator
// (trogdor.Probe): its status, then a probe task, created, read until
// done with every agent's answer (a prodlab worker jar on kafka-clients
// 4.3.1, trogdor up's release), stopped and destroyed. Any other request,
// a produce task above all, is refused (400), so the command fails.
func stubCoordinator(f stubFleet) http.Handler {
	var created sync.Map // task id → true
	mux := http.NewServeMux()
	answer := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("GET /coordinator/status", func(w http.ResponseWriter, _ *http.Request) {
		answer(w, map[string]any{"serverStartMs": 1764000000000})
	})
	mux.HandleFunc("POST /coordinator/task/create", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID   string `json:"id"`
			Spec struct {
				Class string `json:"class"`
			} `json:"spec"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil || req.Spec.Class != trogdor.ProbeClass {
			http.Error(w, "stub coordinator: a dry run creates no task but the probe", http.StatusBadRequest)
			return
		}
		created.Store(req.ID, true)
		answer(w, map[string]any{})
	})
	mux.HandleFunc("GET /coordinator/tasks/{id}", func(w http.ResponseWriter, r *http.Request) {
		if _, ok := created.Load(r.PathValue("id")); !ok {
			http.Error(w, "stub coordinator: no such task", http.StatusNotFound)
			return
		}
		status := map[string]trogdor.AgentInfo{}
		for _, a := range f.agents {
			status[a] = trogdor.AgentInfo{Node: a, Hostname: f.host(a), Agents: f.agents,
				KafkaClients: trogdor.DefaultRelease, Java: "21.0.5", TaskAPI: trogdor.TaskAPI}
		}
		answer(w, map[string]any{"state": "DONE", "spec": map[string]any{"class": trogdor.ProbeClass}, "status": status})
	})
	mux.HandleFunc("PUT /coordinator/task/stop", func(w http.ResponseWriter, _ *http.Request) { answer(w, map[string]any{}) })
	mux.HandleFunc("DELETE /coordinator/tasks", func(w http.ResponseWriter, _ *http.Request) { answer(w, map[string]any{}) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "stub coordinator: a dry run does not ask "+r.Method+" "+r.URL.Path, http.StatusBadRequest)
	})
	return mux
}

// fakeTools writes java and mvn that record each call in
// $PRODLAB_TEST_CALLS and fail, but for the KIP-1269 agent's release
// check, which java answers (stubs).
func fakeTools(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, tool := range []string{"java", "mvn"} {
		script := "#!/bin/sh\necho \"" + tool + " $*\" >> \"$PRODLAB_TEST_CALLS\"\n"
		if tool == "java" {
			script += "case \"$*\" in *dev.prodlab.agent.Agent*) exit 0;; esac\n"
		}
		script += "echo \"" + tool + " must not run in prodlab's docs test\" >&2\nexit 1\n"
		if err := os.WriteFile(filepath.Join(dir, tool), []byte(script), 0o755); err != nil {
			return err
		}
	}
	return nil
}

// seedCache copies testdata/cmds/cache (resolution markers and the
// broker config definitions of the default release) and gives each
// resolution a stub jar, so that a dry run finds the releases resolved.
func seedCache(dir string) error {
	if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "cmds", "cache"))); err != nil {
		return err
	}
	markers, err := filepath.Glob(filepath.Join(dir, "maven", "*", ".complete"))
	if err != nil {
		return err
	}
	for _, m := range markers {
		libs := filepath.Join(filepath.Dir(m), "libs")
		if err := os.MkdirAll(libs, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(libs, "stub.jar"), nil, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// stubBuilds stands in for what `make build` builds: a dry run checks
// that the jars are there, and asks the librdkafka worker to check the
// settings, which the stub accepts as they are (stubs).
func stubBuilds(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range []string{"prodlab-worker.jar", "prodlab-agent.jar"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			return err
		}
	}
	worker := "#!/bin/sh\necho \"prodlab-librdkafka $*\" >> \"$PRODLAB_TEST_CALLS\"\n" +
		"[ \"$*\" = check ] || exit 1\ncat >/dev/null\necho '{}'\n"
	return os.WriteFile(filepath.Join(dir, "prodlab-librdkafka"), []byte(worker), 0o755)
}

// fillWorkDir lays out the directory the commands run in: the fixtures
// and the pages' <!-- file: NAME --> blocks under the docs' names, and
// the recorded runs under results/ (run links
// the repository's bench/ and experiments/ into each copy).
func fillWorkDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, fixture := range fixtureFiles {
		data, err := os.ReadFile(filepath.Join("testdata", "cmds", fixture))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	pages, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		return err
	}
	files, err := pageFiles(append([]string{"README.md"}, pages...))
	if err != nil {
		return err
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b.text), 0o644); err != nil {
			return err
		}
	}
	return writeRecordedRuns(filepath.Join(dir, "results"))
}

// lowMemory is what a dry run says when the machine has too little
// memory free for the clusters it would start: a busy machine, not a
// wrong command.
const lowMemory = "do not fit in this machine's memory"

// result is what a command did.
type result struct {
	code   int
	output string   // stdout and stderr
	calls  []string // the java, mvn and librdkafka worker calls it made
}

// run runs prodlab with args in a fresh copy of the work directory,
// which holds the runs a --resume continues when args has --resume.
func (sb *sandbox) run(t *testing.T, args []string, redirect string) result {
	t.Helper()
	return sb.runIn(t, args, redirect, func(dir string) error {
		if slices.Contains(args, "--resume") {
			return writeInterruptedRuns(dir)
		}
		return nil
	})
}

// runIn runs prodlab with args in a fresh copy of the work directory,
// prepared by prepare.
func (sb *sandbox) runIn(t *testing.T, args []string, redirect string, prepare func(dir string) error) result {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(sb.template)); err != nil {
		t.Fatal(err)
	}
	if err := prepare(dir); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"bench", "experiments"} {
		if err := os.Symlink(filepath.Join(sb.repo, d), filepath.Join(dir, d)); err != nil {
			t.Fatal(err)
		}
	}
	callLog := filepath.Join(dir, ".calls.log")
	cmd := exec.Command(sb.bin, args...)
	cmd.Dir = dir
	cmd.Env = append(slices.Clone(sb.env), "PRODLAB_TEST_CALLS="+callLog)
	var out bytes.Buffer
	cmd.Stderr = &out
	cmd.Stdout = &out
	if redirect != "" {
		f, err := os.Create(filepath.Join(dir, redirect))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		cmd.Stdout = f
	}
	err := cmd.Run()
	res := result{output: out.String()}
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		res.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("prodlab %s: %v", strings.Join(args, " "), err)
	}
	if data, err := os.ReadFile(callLog); err == nil {
		res.calls = strings.Split(strings.TrimSpace(string(data)), "\n")
	}
	if strings.Contains(res.output, lowMemory) {
		t.Skipf("prodlab %s: the machine has too little memory free for a dry run's check: %s", strings.Join(args, " "), firstLine(res.output))
	}
	return res
}

// TestBuiltinsTrials: `prodlab run NAME --set trials=5 --dry-run` is
// accepted for every built-in experiment; the capacity searches and
// advisors, which decide their own probes, say they ignore it (issue 46).
func TestBuiltinsTrials(t *testing.T) {
	sb := newSandbox(t)
	files, err := filepath.Glob(filepath.Join("experiments", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no built-in experiments (%v)", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			want, says := 0, ""
			// A capacity search and an advisor decide their own probes:
			// trials is ignored there, saying so in one line.
			if regexp.MustCompile(`(?m)^(capacity|advise):`).Match(data) {
				says = "--set trials=5 is ignored"
			}
			res := sb.run(t, []string{"run", name, "--set", "trials=5", "--dry-run"}, "")
			if res.code != want || !strings.Contains(res.output, says) {
				t.Errorf("prodlab run %s --set trials=5 --dry-run exits %d, want %d (saying %q):\n%s", name, res.code, want, says, res.output)
			}
			checkCalls(t, "prodlab run "+name+" --dry-run", res.calls)
		})
	}
}
