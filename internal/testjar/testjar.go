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
	return "build the Java worker: " + e.err.Error() + "\n" + string(e.out)
}
