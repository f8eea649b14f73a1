package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunInputErrors: bad input exits 2 with a message that says where and
// what, before anything starts (none of these cases starts a broker).
func TestRunInputErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	syntax := write("syntax.yaml", "name: x\nproducer:\n  acks: [all\n")
	typo := write("typo.yaml", "name: x\nproducer: {lingr.ms: 5}\n")
	contra := write("contra.yaml", "name: x\nclient: franz-go\nproducer: {enable.idempotence: true, acks: 1}\n")
	tests := []struct {
		name string
		args []string
		want string
	}{
		// A YAML syntax error points at file:line:column.
		{"yaml syntax", []string{"run", syntax}, syntax + ":3:"},
		// An unknown key suggests the closest valid one.
		{"unknown key", []string{"run", typo}, `did you mean "linger.ms"?`},
		// --set is checked like the file.
		{"bad --set", []string{"run", "batching", "--set", "workload.records=-5"}, "--set workload.records=-5"},
		// Contradictions are rejected before any broker starts.
		{"contradiction", []string{"run", contra}, "enable.idempotence=true requires acks=all"},
		// A property the client cannot honour names property and client.
		{"unsupported property", []string{"run", "batching", "--set", "producer.max.request.size=5"}, "max.request.size is not supported by client franz-go"},
		// Unknown experiments suggest the closest built-in.
		{"unknown experiment", []string{"run", "batchin"}, "batching"},
		// Unknown flags are usage errors.
		{"unknown flag", []string{"run", "--outt", "x"}, "unknown flag: --outt"},
		// Too many arguments.
		{"extra argument", []string{"run", "a", "b"}, "accepts at most 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(tt.args, &out, &errOut)
			if code != ExitUsage {
				t.Errorf("exit code %d, want %d; stderr:\n%s", code, ExitUsage, errOut.String())
			}
			if !strings.Contains(errOut.String(), tt.want) {
				t.Errorf("stderr lacks %q:\n%s", tt.want, errOut.String())
			}
		})
	}
}

// TestExperimentsLists every built-in experiment with its description.
func TestExperimentsList(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"experiments"}, &out, &errOut); code != ExitOK {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, name := range []string{"batching", "acks-inflight", "replication", "record-size", "inflight-rtt", "idempotence"} {
		if !strings.Contains(out.String(), name) {
			t.Errorf("experiments output lacks %s:\n%s", name, out.String())
		}
	}
}

// TestRunWithoutWorkerJar: a Java scenario without the worker jar fails
// before anything starts, saying how to build it.
func TestRunWithoutWorkerJar(t *testing.T) {
	t.Setenv("PRODLAB_WORKER_JAR", filepath.Join(t.TempDir(), "missing.jar"))
	var out, errOut bytes.Buffer
	code := run([]string{"run", "replication", "--out", t.TempDir()}, &out, &errOut)
	if code != ExitFailure || !strings.Contains(errOut.String(), "make build") {
		t.Errorf("exit %d, stderr:\n%s", code, errOut.String())
	}
	if strings.Contains(errOut.String(), "starting") {
		t.Errorf("something started:\n%s", errOut.String())
	}
}
