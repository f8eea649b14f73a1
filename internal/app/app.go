// Package app holds prodlab's use cases as functions with request and
// answer types: plan and run an experiment, compare scenarios, run perf,
// keep a cluster or a Trogdor fleet up between commands. Front ends (the
// cli today, a live view or the advisor tomorrow) turn their input into a
// request and render the answer; only app reaches the packages that start
// things (lab, cluster, driver, trogdor).
package app

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/lab"
)

// InputError marks an error caused by the user's input (exit code 2 in
// the cli): nothing started.
type InputError struct{ Err error }

func (e InputError) Error() string { return e.Err.Error() }
func (e InputError) Unwrap() error { return e.Err }

// invalid marks err as the input's fault.
func invalid(err error) error { return InputError{err} }

// IsInput reports whether err (or an error it wraps) is an InputError.
func IsInput(err error) bool {
	var in InputError
	return errors.As(err, &in)
}

// ErrViolated is matched (errors.Is) by a run whose audit found lost,
// duplicated, reordered or phantom records the experiment does not expect.
var ErrViolated = lab.ErrViolated

// workerJarEnv names the variable that points at the Java worker jar.
const workerJarEnv = "PRODLAB_WORKER_JAR"

// WorkerJar finds the Java worker: $PRODLAB_WORKER_JAR, next to the
// executable, or in the source tree's build output.
func WorkerJar() string {
	if p := os.Getenv(workerJarEnv); p != "" {
		return p
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), "prodlab-worker.jar")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return filepath.Join("java", "worker", "target", "prodlab-worker.jar")
}

// SettingNotes explains how a client's driver applies a file of producer
// settings (report.SettingNotes), for advice.properties: the one way the
// front ends hand the drivers' explanations to report, which imports no
// driver.
func SettingNotes(client string, props map[string]string) (string, map[string]string) {
	return driver.SettingNotes(client, props)
}
