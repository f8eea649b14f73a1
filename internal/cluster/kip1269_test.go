package cluster

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAgentArgs checks the JVM options of a KIP-1269 cluster: none without
// retention, the agent and property with it, and a clear error when the
// agent jar is missing.
func TestAgentArgs(t *testing.T) {
	jar := filepath.Join(t.TempDir(), "prodlab-agent.jar")
	if err := os.WriteFile(jar, []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		cfg     Config
		release string
		want    string // joined args
		err     string
	}{
		{"not emulated", Config{Agent: jar}, "4.4.0", "", ""},
		{"retain 20", Config{KIP1269Retain: 20, Agent: jar}, "4.4.0",
			"-javaagent:" + jar + "=broker -Dprodlab.kip1269.retain=20 -Dprodlab.kafka.release=4.4.0", ""},
		{"release from the config", Config{KIP1269Retain: 7, Agent: jar, Kafka: "3.9.1"}, "",
			"-javaagent:" + jar + "=broker -Dprodlab.kip1269.retain=7 -Dprodlab.kafka.release=3.9.1", ""},
		{"no agent", Config{KIP1269Retain: 20}, "4.4.0", "", "needs prodlab's agent jar"},
		{"agent missing", Config{KIP1269Retain: 20, Agent: jar + ".gone"}, "4.4.0", "", "build it with 'make build'"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := agentArgs(tc.cfg, tc.release)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s := strings.Join(got, " "); s != tc.want {
				t.Errorf("args %q, want %q", s, tc.want)
			}
		})
	}
}
