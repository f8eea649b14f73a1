package cluster

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/maven"
)

// classArchive is a distribution's class-data-sharing archive (AppCDS):
// the classes a broker loads, parsed and verified once and mapped by every
// later JVM of that distribution. A 1-broker start's CPU fell from 6.95 s
// to 4.12 s with it (4.27 s to 2.50 s under C1; bench/RESULTS.md §46,
// bench/cds.sh); it changes how a broker starts, not how it runs.
//
// It is made in two steps, neither of them beside a trial. A broker of a
// distribution without an archive writes the classes it loads to a class
// list as it loads them (-XX:DumpLoadedClassList, no work at its exit);
// the list is kept once the broker exits by itself. The next cluster
// start of that distribution, before any broker starts, dumps the archive
// from the list (java -Xshare:dump: about 10 s of CPU, once) into a file
// of its own, renamed into place, so a JVM never maps a file another is
// writing. The names hash the java binary and every jar (path, size,
// modification time): CDS refuses an archive whose jars changed, and a
// changed distribution gets new ones.
type classArchive struct {
	path string // the archive; "" when brokers run without one
}

// cdsOptions are the JVM options that mean the user runs CDS their own way
// (BrokerJVMOptsEnv); prodlab then leaves it to them.
var cdsOptions = []string{"-Xshare", "SharedArchiveFile", "ArchiveClassesAtExit", "DumpLoadedClassList", "SharedClassListFile"}

// archiveDumpTimeout bounds the archive's dump; a dump that takes longer is
// abandoned and the brokers start without an archive.
const archiveDumpTimeout = 3 * time.Minute

// staleDumpLock is how old another process's dump lock may be before it
// counts as left by a process that died.
const staleDumpLock = 5 * time.Minute

// newClassArchive names java and d's archive in dir (the cache's cds
// directory when empty); none when the user's JVM options handle CDS or
// the cache cannot be named.
func newClassArchive(dir, java string, d dist) classArchive {
	for _, o := range BrokerJVMOpts() {
		for _, c := range cdsOptions {
			if strings.Contains(o, c) {
				return classArchive{}
			}
		}
	}
	if dir == "" {
		cache, err := maven.CacheDir()
		if err != nil {
			return classArchive{}
		}
		dir = filepath.Join(cache, "cds")
	}
	key, err := archiveKey(java, d.classpath)
	if err != nil {
		return classArchive{}
	}
	return classArchive{path: filepath.Join(dir, key+".jsa")}
}

// archiveKey hashes what a CDS archive is valid for: the JVM (java's real
// path and its libjvm) and the class path's jars with their size and
// modification time.
func archiveKey(java, classpath string) (string, error) {
	real, err := filepath.EvalSymlinks(java)
	if err != nil {
		return "", err
	}
	files := []string{real, filepath.Join(filepath.Dir(filepath.Dir(real)), "lib", "server", "libjvm.so")}
	for _, e := range filepath.SplitList(classpath) {
		if strings.HasSuffix(e, "*") { // a local build's libs/*
			jars, err := filepath.Glob(strings.TrimSuffix(e, "*") + "*.jar")
			if err != nil {
				return "", err
			}
			files = append(files, jars...)
			continue
		}
		files = append(files, e)
	}
	h := sha256.New()
	for i, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			if i == 1 && os.IsNotExist(err) { // a JDK laid out otherwise
				continue
			}
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", f, fi.Size(), fi.ModTime().UnixNano())
	}
	_, _ = io.WriteString(h, classpath)
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// list is where the class list the archive is dumped from is kept.
func (a classArchive) list() string { return strings.TrimSuffix(a.path, ".jsa") + ".classlist" }

// nonEmpty reports whether path is a regular file with something in it.
func nonEmpty(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Size() > 0
}

// useArgs are the options of a JVM that maps the archive; none before one
// was made.
func (a classArchive) useArgs() []string {
	if a.path == "" || !nonEmpty(a.path) {
		return nil
	}
	return []string{"-XX:SharedArchiveFile=" + a.path}
}

// brokerArgs are a broker JVM's options: the archive's when it exists;
// else, when no class list is kept yet either, a class list written as
// the broker loads classes into pending, a file of this JVM's own that
// keep moves into place.
func (a classArchive) brokerArgs() (args []string, pending string) {
	if use := a.useArgs(); use != nil || a.path == "" || nonEmpty(a.list()) {
		return use, ""
	}
	if err := os.MkdirAll(filepath.Dir(a.path), 0o755); err != nil {
		return nil, ""
	}
	f, err := os.CreateTemp(filepath.Dir(a.path), filepath.Base(a.list())+".*.tmp")
	if err != nil {
		return nil, ""
	}
	pending = f.Name()
	_ = f.Close()
	return []string{"-XX:DumpLoadedClassList=" + pending}, pending
}

// keep moves the class list a broker wrote into place when the broker
// exited by itself (the JVM has written it whole), and removes it
// otherwise: a JVM killed mid-line leaves a part.
func (a classArchive) keep(pending string, st *os.ProcessState) {
	if pending == "" {
		return
	}
	if st != nil && st.Exited() && nonEmpty(pending) && os.Rename(pending, a.list()) == nil {
		return
	}
	_ = os.Remove(pending)
}

// dump makes the archive from the kept class list when there is a list
// and no archive, before any broker of the cluster starts. One process
// dumps at a time (a lock file beside the archive); the others start
// their brokers without an archive meanwhile. A dump that fails removes
// the list, so that a later broker writes a new one. It returns how long
// the dump took, 0 when there was none.
func (a classArchive) dump(ctx context.Context, java, classpath string) (time.Duration, error) {
	if a.path == "" || nonEmpty(a.path) || !nonEmpty(a.list()) {
		return 0, nil
	}
	lock := a.path + ".lock"
	if fi, err := os.Stat(lock); err == nil && time.Since(fi.ModTime()) > staleDumpLock {
		_ = os.Remove(lock)
	}
	l, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return 0, nil // another process dumps it
	}
	_ = l.Close()
	defer func() { _ = os.Remove(lock) }()
	f, err := os.CreateTemp(filepath.Dir(a.path), filepath.Base(a.path)+".*.tmp")
	if err != nil {
		return 0, fmt.Errorf("class-data archive: %w", err)
	}
	tmp := f.Name()
	_ = f.Close()
	defer func() { _ = os.Remove(tmp) }() // renamed away on success
	ctx, cancel := context.WithTimeout(ctx, archiveDumpTimeout)
	defer cancel()
	start := time.Now()
	cmd := exec.Command(java, "-Xshare:dump", "-XX:SharedClassListFile="+a.list(), "-XX:SharedArchiveFile="+tmp, "-cp", classpath)
	out, err := runCapture(ctx, cmd)
	if err == nil && !nonEmpty(tmp) {
		err = fmt.Errorf("no archive written")
	}
	if err == nil {
		err = os.Rename(tmp, a.path)
	}
	if err != nil {
		_ = os.Remove(a.list())
		return 0, fmt.Errorf("class-data archive from %s: %w\n%s", a.list(), err, indent(lastLines(out, logTailLines)))
	}
	return time.Since(start), nil
}

// runCapture runs cmd through the proc registry (runToEnd) and returns its
// combined output.
func runCapture(ctx context.Context, cmd *exec.Cmd) (string, error) {
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	err := runToEnd(ctx, cmd)
	return out.String(), err
}
