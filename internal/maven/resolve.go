package maven

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"github.com/prodlab/prodlab/internal/proc"
)

// File names inside a resolution directory CacheDir()/maven/<key>/.
const (
	markerName = ".complete" // written last; lists the artifacts resolved
	lockName   = ".lock"     // flock(2)ed while resolving
	pomName    = "pom.xml"
	logName    = "mvn.log" // mvn's output of the last attempt
	libsName   = "libs"
)

// mvnCommand is the Maven executable; tests replace it with a fake.
var mvnCommand = "mvn"

// tailLines is how many trailing lines of mvn's output an error carries.
const tailLines = 30

// Resolve returns the absolute paths of the jars of the given artifacts
// ("group:artifact:version") and all their runtime dependencies, sorted.
//
// The jars are copied by `mvn dependency:copy-dependencies` into
// CacheDir()/maven/<key>/libs, once: a completed resolution is marked with a
// .complete file listing the artifacts, and later calls with the same key and
// artifacts return the cached jars without running mvn. Calls with the same
// key but other artifacts resolve again. Concurrent callers, in this process
// or others, serialize on a file lock on the key's directory.
func Resolve(ctx context.Context, key string, artifacts ...string) ([]string, error) {
	dir, coords, err := target(key, artifacts)
	if err != nil {
		return nil, err
	}
	if jars, ok := cached(dir, coords); ok {
		return jars, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create maven cache %s: %w", dir, err)
	}
	unlock, err := lockDir(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// Another caller may have finished while we waited for the lock.
	if jars, ok := cached(dir, coords); ok {
		return jars, nil
	}
	if err := runMaven(ctx, dir, key, coords); err != nil {
		return nil, err
	}
	jars, err := listJars(filepath.Join(dir, libsName))
	if err != nil {
		return nil, fmt.Errorf("resolve %s: %w", describe(coords), err)
	}
	if len(jars) == 0 {
		return nil, fmt.Errorf("resolve %s: mvn succeeded but copied no jars to %s", describe(coords), filepath.Join(dir, libsName))
	}
	if err := writeMarker(dir, coords); err != nil {
		return nil, err
	}
	return jars, nil
}

// Cached reports whether Resolve would find key's artifacts in the cache
// (and so run no mvn), for a dry run that says what a start would
// download.
func Cached(key string, artifacts ...string) bool {
	dir, coords, err := target(key, artifacts)
	if err != nil {
		return false
	}
	_, ok := cached(dir, coords)
	return ok
}

// target checks key and parses the artifacts, and names the cache
// directory their jars go to: what Resolve and Cached both start from.
func target(key string, artifacts []string) (dir string, coords []coordinate, err error) {
	if err := validateKey(key); err != nil {
		return "", nil, err
	}
	if len(artifacts) == 0 {
		return "", nil, fmt.Errorf("resolve %s: no artifacts given", key)
	}
	coords = make([]coordinate, len(artifacts))
	for i, a := range artifacts {
		c, err := parseCoordinate(a)
		if err != nil {
			return "", nil, fmt.Errorf("resolve %s: %w", key, err)
		}
		coords[i] = c
	}
	cache, err := CacheDir()
	if err != nil {
		return "", nil, err
	}
	return filepath.Join(cache, "maven", key), coords, nil
}

// describe names the artifacts for error messages.
func describe(coords []coordinate) string {
	names := make([]string, len(coords))
	for i, c := range coords {
		names[i] = c.String()
	}
	return strings.Join(names, ", ")
}

// markerContent is what the .complete marker holds for these artifacts.
func markerContent(coords []coordinate) string {
	var b strings.Builder
	for _, c := range coords {
		b.WriteString(c.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// cached reports the jars of a completed resolution of exactly these
// artifacts in dir, if there is one.
func cached(dir string, coords []coordinate) ([]string, bool) {
	data, err := os.ReadFile(filepath.Join(dir, markerName))
	if err != nil || string(data) != markerContent(coords) {
		return nil, false
	}
	jars, err := listJars(filepath.Join(dir, libsName))
	if err != nil || len(jars) == 0 {
		return nil, false
	}
	return jars, true
}

// writeMarker records a completed resolution atomically (write, then rename),
// so a reader never sees a half-written marker.
func writeMarker(dir string, coords []coordinate) error {
	tmp := filepath.Join(dir, markerName+".tmp")
	if err := os.WriteFile(tmp, []byte(markerContent(coords)), 0o644); err != nil {
		return fmt.Errorf("write resolution marker: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, markerName)); err != nil {
		return fmt.Errorf("write resolution marker: %w", err)
	}
	return nil
}

// listJars returns the absolute paths of the *.jar files in dir, sorted.
func listJars(dir string) ([]string, error) {
	matches, err := filepath.Glob(filepath.Join(dir, "*.jar"))
	if err != nil {
		return nil, fmt.Errorf("list jars in %s: %w", dir, err)
	}
	for i, m := range matches {
		abs, err := filepath.Abs(m)
		if err != nil {
			return nil, fmt.Errorf("list jars in %s: %w", dir, err)
		}
		matches[i] = abs
	}
	sort.Strings(matches)
	return matches, nil
}

// runMaven writes the pom, clears any partial libs directory and runs mvn,
// keeping its output in mvn.log. The caller holds the directory lock.
func runMaven(ctx context.Context, dir, key string, coords []coordinate) error {
	libs := filepath.Join(dir, libsName)
	// A previous attempt may have died half-way: start clean.
	if err := os.Remove(filepath.Join(dir, markerName)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("clear resolution marker: %w", err)
	}
	if err := os.RemoveAll(libs); err != nil {
		return fmt.Errorf("clear %s: %w", libs, err)
	}
	pom := filepath.Join(dir, pomName)
	if err := os.WriteFile(pom, []byte(renderPom(key, coords)), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", pom, err)
	}
	var out bytes.Buffer
	cmd := exec.Command(mvnCommand, "-B", "-q", "-f", pom,
		"dependency:copy-dependencies", "-DincludeScope=runtime", "-DoutputDirectory="+libs)
	cmd.Dir = dir
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := proc.Start(cmd); err != nil {
		return fmt.Errorf("resolve %s: %w (is Maven installed and on PATH?)", describe(coords), err)
	}
	pid := cmd.Process.Pid
	waitErr := make(chan error, 1)
	go func() { waitErr <- cmd.Wait() }()
	var err error
	select {
	case err = <-waitErr:
	case <-ctx.Done():
		_ = proc.Signal(pid, syscall.SIGKILL)
		<-waitErr //nolint:errcheck // killed on purpose: its exit status says nothing new
		err = ctx.Err()
	}
	proc.Forget(pid)
	_ = os.WriteFile(filepath.Join(dir, logName), out.Bytes(), 0o644)
	if err != nil {
		return fmt.Errorf("resolve %s with mvn: %w\n%s", describe(coords), err, tail(out.String(), tailLines))
	}
	return nil
}

// tail returns the last n non-empty lines of s, indented for use inside an
// error message.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	if len(lines) == 1 && lines[0] == "" {
		return "  (mvn printed nothing)"
	}
	return "  " + strings.Join(lines, "\n  ")
}
