package report

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/results"
)

// Env describes where a run was measured, for the report's reader to judge
// how far its numbers travel.
type Env struct {
	// Kafka and Clients are the distinct broker and client versions the
	// records name.
	Kafka   []string `json:"kafka"`
	Clients []string `json:"clients"`
	CPUs    int      `json:"cpus"`
	// OS is the operating system and architecture, with the distribution's
	// name when /etc/os-release gives it.
	OS   string `json:"os"`
	Java string `json:"java,omitempty"`
	Go   string `json:"go"`
	// Note says when and how the environment was gathered.
	Note string `json:"note,omitempty"`
}

// javaVersionTimeout bounds `java -version`, which should take well under
// a second.
const javaVersionTimeout = 10 * time.Second

// Environment gathers what it can about the machine it runs on (CPU count,
// OS, Go and Java versions) and the versions recs name. Called at the end of
// a run it describes the run's machine; called later by `prodlab report
// --html` it describes the machine regenerating the report, and Note says
// so.
func Environment(recs []results.Record) Env {
	e := Env{
		Kafka:   distinct(recs, func(r results.Record) string { return r.Kafka }),
		Clients: distinct(recs, func(r results.Record) string { return r.Client }),
		CPUs:    runtime.NumCPU(),
		OS:      osName(),
		Java:    JavaVersion(),
		Go:      runtime.Version(),
		Note:    "machine figures gathered " + time.Now().UTC().Format("2006-01-02 15:04 UTC") + " on the host that wrote this report",
	}
	return e
}

// distinct returns the non-empty values of f over recs, in order.
func distinct(recs []results.Record, f func(results.Record) string) []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range recs {
		if v := f(r); v != "" && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// osName returns GOOS/GOARCH, with PRETTY_NAME from /etc/os-release when
// readable ("linux/amd64, Debian GNU/Linux 12 (bookworm)").
func osName() string {
	name := runtime.GOOS + "/" + runtime.GOARCH
	b, err := os.ReadFile("/etc/os-release")
	if err != nil {
		return name
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "PRETTY_NAME="); ok {
			return name + ", " + strings.Trim(v, `"`)
		}
	}
	return name
}

// JavaVersion returns the first line of `java -version` (which Java
// prints on stderr), or "" when no java is on PATH or it fails.
func JavaVersion() string {
	java, err := exec.LookPath("java")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), javaVersionTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, java, "-version").CombinedOutput()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(line)
}
