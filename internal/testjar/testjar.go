// Package testjar finds the Java worker jar for tests that run the Java
// client: $PRODLAB_WORKER_JAR (set by make test), else the Maven module's
// build output, built on first use.
package testjar

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

var (
	once sync.Once
	jar  string
	err  error
)

// WorkerJar returns the absolute path of the worker jar, building it with
// Maven if needed; it fails the test when that is impossible.
func WorkerJar(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("PRODLAB_WORKER_JAR"); p != "" {
		return p
	}
	once.Do(func() {
		_, self, _, _ := runtime.Caller(0)
		pom := filepath.Join(filepath.Dir(self), "..", "..", "java", "worker", "pom.xml")
		jar = filepath.Join(filepath.Dir(pom), "target", "prodlab-worker.jar")
		if _, statErr := os.Stat(jar); statErr == nil {
			return
		}
		out, buildErr := exec.Command("mvn", "-B", "-q", "-DskipTests", "-f", pom, "package").CombinedOutput()
		if buildErr != nil {
			err = &buildError{buildErr, out}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return jar
}

type buildError struct {
	err error
	out []byte
}

func (e *buildError) Error() string {
	return "build a worker: " + e.err.Error() + "\n" + string(e.out)
}

var (
	rdOnce sync.Once
	rdPath string
	rdErr  error
)

// LibrdkafkaWorker returns the librdkafka worker's path for tests that run
// client librdkafka: $PRODLAB_LIBRDKAFKA_WORKER (set by make test), else
// the module's bin/prodlab-librdkafka built on first use (go build with
// cgo and the build tag librdkafka); it fails the test when that is
// impossible. It also sets $PRODLAB_LIBRDKAFKA_WORKER for the whole test
// process (os.Setenv, once: t.Setenv would forbid t.Parallel), so that
// drivers started by the test find it.
func LibrdkafkaWorker(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("PRODLAB_LIBRDKAFKA_WORKER"); p != "" {
		return p
	}
	rdOnce.Do(func() {
		_, self, _, _ := runtime.Caller(0)
		root := filepath.Join(filepath.Dir(self), "..", "..")
		rdPath = filepath.Join(root, "bin", "prodlab-librdkafka")
		cmd := exec.Command("go", "build", "-tags", "librdkafka", "-o", rdPath, "./cmd/prodlab-librdkafka")
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			rdErr = &buildError{err, out}
			return
		}
		rdErr = os.Setenv("PRODLAB_LIBRDKAFKA_WORKER", rdPath)
	})
	if rdErr != nil {
		t.Fatal(rdErr)
	}
	return rdPath
}

// FleetWorkerDir returns a directory, removed with t, holding the workers
// a Trogdor agent runs for clients other than Java (clients.Kind
// FleetWorker): prodlab, built from this module for franz-go, and a link
// to the librdkafka worker (LibrdkafkaWorker). A local fleet started with
// it as trogdor.Config.WorkerDir runs this code's workers, not whatever
// bin/ holds.
func FleetWorkerDir(t testing.TB) string {
	t.Helper()
	rd := LibrdkafkaWorker(t)
	dir := t.TempDir()
	_, self, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(self), "..", "..")
	cmd := exec.Command("go", "build", "-o", filepath.Join(dir, "prodlab"), "./cmd/prodlab")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatal(&buildError{err, out})
	}
	abs, err := filepath.Abs(rd)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(abs, filepath.Join(dir, "prodlab-librdkafka")); err != nil {
		t.Fatal(err)
	}
	return dir
}
