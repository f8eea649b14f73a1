package driver

import (
	"os"
	"path/filepath"
	"testing"
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
