package cluster

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/prodlab/prodlab/internal/maven"
)

// classArchive is a distribution's class-data-sharing archive (a JDK 13+
// dynamic CDS archive): the classes a broker loads, parsed and verified
// once and mapped by every later JVM of that distribution. A 1-broker
// start's CPU fell from 7.23 s to 4.85 s with it (4.18 s to 2.40 s under
// C1; bench/RESULTS.md §46, bench/cds.sh); it changes how a broker
// starts, not how it runs.
//
// The first broker of a distribution that finds no archive dumps one when
// it exits by itself (a SIGTERM is such an exit; a SIGKILL is not), into a
// file of its own that is then renamed into place, so a JVM never maps a
// file another is writing. The archive's name hashes the java binary and
// every jar (path, size, modification time): CDS refuses an archive whose
// jars changed, and a changed distribution gets a new one.
type classArchive struct {
	path string // "" when brokers run without one
}

// cdsOptions are the JVM options that mean the user runs CDS their own way
// (BrokerJVMOptsEnv); prodlab then leaves it to them.
var cdsOptions = []string{"-Xshare", "SharedArchiveFile", "ArchiveClassesAtExit"}

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
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			if f == files[1] && os.IsNotExist(err) { // a JDK laid out otherwise
				continue
			}
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", f, fi.Size(), fi.ModTime().UnixNano())
	}
	_, _ = io.WriteString(h, classpath)
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// useArgs are the options of a JVM that maps the archive; none before one
// was made.
func (a classArchive) useArgs() []string {
	if a.path == "" {
		return nil
	}
	if fi, err := os.Stat(a.path); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
		return nil
	}
	return []string{"-XX:SharedArchiveFile=" + a.path}
}

// brokerArgs are a broker JVM's options: the archive's when it exists,
// else a dump at exit into pending, a file of this JVM's own that keep
// moves into place.
func (a classArchive) brokerArgs() (args []string, pending string) {
	if use := a.useArgs(); use != nil || a.path == "" {
		return use, ""
	}
	if err := os.MkdirAll(filepath.Dir(a.path), 0o755); err != nil {
		return nil, ""
	}
	f, err := os.CreateTemp(filepath.Dir(a.path), filepath.Base(a.path)+".*.tmp")
	if err != nil {
		return nil, ""
	}
	pending = f.Name()
	_ = f.Close()
	_ = os.Remove(pending) // the JVM writes it at exit
	return []string{"-XX:ArchiveClassesAtExit=" + pending}, pending
}

// keep moves the archive a JVM dumped into place when the JVM exited by
// itself (it writes the archive whole before it exits), and removes it
// otherwise: a JVM killed while dumping leaves a part.
func (a classArchive) keep(pending string, st *os.ProcessState) {
	if pending == "" {
		return
	}
	if st != nil && st.Exited() {
		if fi, err := os.Stat(pending); err == nil && fi.Size() > 0 && os.Rename(pending, a.path) == nil {
			return
		}
	}
	_ = os.Remove(pending)
}
