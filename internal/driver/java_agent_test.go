package driver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/testjar"
)

// TestAgentJar checks where the agent is looked for: the environment, then
// beside the worker jar, then the agent module beside the worker's.
func TestAgentJar(t *testing.T) {
	root := t.TempDir()
	touch := func(p string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bin := touch(filepath.Join(root, "bin", AgentJarName))
	module := touch(filepath.Join(root, "java", "agent", "target", AgentJarName))
	for _, tc := range []struct {
		name, env, worker, want string
	}{
		{"environment first", "/x/agent.jar", filepath.Join(root, "bin", "prodlab-worker.jar"), "/x/agent.jar"},
		{"beside the worker in bin", "", filepath.Join(root, "bin", "prodlab-worker.jar"), bin},
		{"module beside the worker's", "", filepath.Join(root, "java", "worker", "target", "prodlab-worker.jar"), module},
		{"nothing found", "", filepath.Join(root, "elsewhere", "w.jar"), filepath.Join("java", "agent", "target", AgentJarName)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("PRODLAB_AGENT_JAR", tc.env)
			if got := AgentJar(tc.worker); filepath.Clean(got) != filepath.Clean(tc.want) {
				t.Errorf("AgentJar(%s) = %s, want %s", tc.worker, got, tc.want)
			}
		})
	}
}

// TestCheckLiftedReleases runs the agent's client check on real
// kafka-clients releases before anything starts: the supported ones pass,
// and 2.8.2, whose ProducerConfig has another layout (no
// postProcessAndValidateIdempotenceConfigs), is refused with the agent's
// reason, naming the release, instead of being patched blindly.
func TestCheckLiftedReleases(t *testing.T) {
	if testing.Short() {
		t.Skip("starts JVMs and may resolve kafka-clients from Maven Central")
	}
	worker := testjar.WorkerJar(t)
	if _, err := os.Stat(AgentJar(worker)); err != nil {
		t.Skipf("prodlab's agent is not built: %v", err)
	}
	for _, tc := range []struct {
		client, want string // want: "" accepted, else a substring of the refusal
	}{
		{"java@3.0.2", ""},
		{"java@4.4.0", ""},
		{"java@2.8.2", "kip1269.lift.client.cap on kafka-clients 2.8.2: prodlab-agent: refusing to patch org.apache.kafka.clients.producer.ProducerConfig.postProcessAndValidateIdempotenceConfigs"},
	} {
		t.Run(tc.client, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			err := CheckLifted(ctx, tc.client, "", worker)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
}
