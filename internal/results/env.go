package results

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/inputfile"
	"github.com/prodlab/prodlab/internal/secret"
)

// EnvironmentFile is the run directory's environment.json: the machine and
// software a run was measured on, saved when the run starts so that a
// report rendered later describes the run's machine, not the one rendering.
const EnvironmentFile = "environment.json"

// Environment describes where a run was measured, for a reader to judge how
// far its numbers travel. Empty strings and zeros are "unknown".
type Environment struct {
	// CPU is the processor's model name (/proc/cpuinfo); Cores counts the
	// logical CPUs Go can use; MemoryBytes is the machine's total memory.
	CPU         string `json:"cpu,omitempty"`
	Cores       int    `json:"cores,omitempty"`
	MemoryBytes int64  `json:"memory_bytes,omitempty"`
	// OS is GOOS/GOARCH with the distribution's name when /etc/os-release
	// gives it ("linux/amd64, Debian GNU/Linux 12 (bookworm)").
	OS string `json:"os,omitempty"`
	// Java is the first line of `java -version`; Go is the Go runtime
	// prodlab was built with.
	Java string `json:"java,omitempty"`
	Go   string `json:"go,omitempty"`
	// Kafka and Clients are the broker and client versions the run uses,
	// as far as they are known when it starts (the caller fills them in;
	// the records name the versions actually used).
	Kafka   []string `json:"kafka,omitempty"`
	Clients []string `json:"clients,omitempty"`
	// JVMOpts are the options a user added to prodlab's JVMs through the
	// environment ("broker", "worker": cluster.BrokerJVMOptsEnv,
	// driver.WorkerJVMOptsEnv), filled in by the caller: they change
	// what the brokers and the Java client cost.
	JVMOpts map[string]string `json:"jvm_opts,omitempty"`
	// Prodlab is prodlab's version (cli.Version), Commit the VCS revision
	// it was built from (with "+dirty" when the tree was modified).
	Prodlab string `json:"prodlab,omitempty"`
	Commit  string `json:"commit,omitempty"`
	// StartedAt is when the environment was gathered (RFC 3339, UTC): the
	// start of the run.
	StartedAt string `json:"started_at,omitempty"`
}

// javaVersionTimeout bounds `java -version`, which should take well under
// a second.
const javaVersionTimeout = 10 * time.Second

// GatherEnvironment probes the machine it runs on: CPU model and count,
// memory, OS, Java (running `java -version`, bounded by ctx and ten
// seconds), Go, and prodlab's version and commit. Call it when a run
// starts; Kafka and Clients are left for the caller.
func GatherEnvironment(ctx context.Context, prodlabVersion string) Environment {
	return Environment{
		CPU:         cpuModel(),
		Cores:       runtime.NumCPU(),
		MemoryBytes: memTotal(),
		OS:          osName(),
		Java:        JavaVersion(ctx),
		Go:          runtime.Version(),
		Prodlab:     prodlabVersion,
		Commit:      vcsCommit(),
		StartedAt:   time.Now().UTC().Format(time.RFC3339),
	}
}

// WriteEnvironment writes dir/environment.json whole (a temporary file
// renamed into place), so a reader never sees half of it.
func WriteEnvironment(dir string, e Environment) error {
	return writeJSONFile(dir, EnvironmentFile, e)
}

// ReadEnvironment reads dir/environment.json. ok is false, with no error,
// when the file does not exist (a run from before prodlab saved one).
func ReadEnvironment(dir string) (e Environment, ok bool, err error) {
	ok, err = readJSONFile(dir, EnvironmentFile, "a prodlab environment record", &e)
	return e, ok, err
}

// writeJSONFile writes v as indented JSON to dir/name through a temporary
// file in dir and a rename.
func writeJSONFile(dir, name string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", name, err)
	}
	b = append(secret.ScrubJSON(b), '\n')
	f, err := os.CreateTemp(dir, "."+name+".*.tmp")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, name))
	}
	if err != nil {
		_ = os.Remove(tmp) // best effort: the write error is the one to report
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}

// maxJSONFile bounds the run directory's JSON files (plan.json,
// environment.json, ...): far above what a run writes, far below what
// hurts.
const maxJSONFile = 64 << 20

// readJSONFile decodes dir/name into v; false when it does not exist. A
// FIFO, a device or a file above maxJSONFile is refused unread
// (inputfile), and a file that does not decode as what, in the user's
// words ("DIR/plan.json: not a prodlab plan (a JSON array where an object
// belongs)"), never quoting Go's types.
func readJSONFile(dir, name, what string, v any) (bool, error) {
	path := filepath.Join(dir, name)
	b, err := inputfile.ReadMax(path, maxJSONFile)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err // inputfile's errors name the path
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return false, fmt.Errorf("%s: not %s (empty)", path, what)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s: not %s (%s)", path, what, jsonReason(err))
	}
	return true, nil
}

// jsonReason says in words why a JSON file did not decode.
func jsonReason(err error) string {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		if strings.Contains(se.Error(), "exceeded max depth") {
			return "nested deeper than a JSON decoder follows"
		}
		if se.Offset == 0 || strings.Contains(se.Error(), "unexpected end") {
			return "invalid JSON: " + se.Error()
		}
		return fmt.Sprintf("invalid JSON at byte %d: %s", se.Offset, se.Error())
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		if te.Field == "" {
			return fmt.Sprintf("a JSON %s where %s belongs", te.Value, jsonKind(te.Type))
		}
		return fmt.Sprintf("%q holds a JSON %s where %s belongs", te.Field, te.Value, jsonKind(te.Type))
	}
	return err.Error()
}

// jsonKind names, as JSON does, the value a Go type decodes from.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "a number"
}

// cpuModel returns the first "model name" of /proc/cpuinfo, or "".
func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// memTotal returns MemTotal of /proc/meminfo in bytes, or 0.
func memTotal() int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			f := strings.Fields(v)
			if len(f) == 2 && f[1] == "kB" {
				if n, err := strconv.ParseInt(f[0], 10, 64); err == nil {
					return n << 10
				}
			}
		}
	}
	return 0
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

// JavaVersion returns the first line of `java -version` (which Java prints
// on stderr), or "" when no java is on PATH or it fails.
func JavaVersion(ctx context.Context) string {
	java, err := exec.LookPath("java")
	if err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, javaVersionTimeout)
	defer cancel()
	out, err := exec.CommandContext(ctx, java, "-version").CombinedOutput()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return strings.TrimSpace(line)
}

// vcsCommit returns the revision the binary was built from, with "+dirty"
// for a modified tree, or "" when the build recorded none (go test, go run
// outside a repository).
func vcsCommit() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	var rev string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev != "" && dirty {
		rev += "+dirty"
	}
	return rev
}
