package cluster

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/testjar"
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

// TestCheckAgent runs the agent's check against real class paths: a
// supported release passes; a distribution without the class is refused
// before anything starts, naming the release.
func TestCheckAgent(t *testing.T) {
	agent, err := filepath.Abs(filepath.Join("..", "..", "bin", "prodlab-agent.jar"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(agent); err != nil {
		t.Skipf("prodlab's agent is not built (make bin/prodlab-agent.jar): %v", err)
	}
	clientsJar, err := filepath.Glob(filepath.Join(os.Getenv("HOME"), ".m2", "repository", "org", "apache", "kafka", "kafka-clients", "*", "kafka-clients-*.jar"))
	if err != nil || len(clientsJar) == 0 {
		t.Skip("no kafka-clients jar in the local Maven repository")
	}
	odd := t.TempDir()
	data, err := os.ReadFile(clientsJar[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(odd, "libs"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(odd, "libs", "kafka-clients-9.9.9.jar"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, kafka string
		retain      int
		err         string
	}{
		{"supported release", DefaultKafka, 20, ""},
		{"the default release", "", 20, ""},
		{"3.9.1", "3.9.1", 5, ""},
		{"distribution without ProducerStateEntry", odd, 20, "this Kafka release is not supported"},
		{"agent missing", DefaultKafka, 20, "needs prodlab's agent"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := agent
			if tc.name == "agent missing" {
				a += ".gone"
			}
			err := CheckAgent(context.Background(), tc.kafka, a, tc.retain)
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("err = %v, want none", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("err = %v, want %q", err, tc.err)
			}
			if err != nil {
				t.Log(err)
			}
		})
	}
}

// TestKIP1269Property tells a KIP-1269 build from a stock Kafka by its
// broker config definitions, under either name the KIP has given its
// setting.
func TestKIP1269Property(t *testing.T) {
	for _, tc := range []struct {
		name string
		def  map[string]string
		want string
	}{
		{"stock", map[string]string{"producer.id.expiration.ms": "INT", "log.dirs": "STRING"}, ""},
		{"the KIP's property", map[string]string{"producer.state.batches.to.retain": "INT"}, "producer.state.batches.to.retain"},
		{"the KIP's first name", map[string]string{"max.idempotence.batches.to.retain": "INT"}, "max.idempotence.batches.to.retain"},
		{"both: the current name", map[string]string{"max.idempotence.batches.to.retain": "INT", "producer.state.batches.to.retain": "INT"}, "producer.state.batches.to.retain"},
		{"a prefix is not the property", map[string]string{"producer.state.batches.to.retain.ms": "LONG"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := KIP1269Property(tc.def); got != tc.want {
				t.Errorf("KIP1269Property = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNativeKIP1269Stock asks a real stock release's broker: no released
// Kafka implements KIP-1269, so the emulation must stay on for it.
func TestNativeKIP1269Stock(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a JVM")
	}
	got, err := NativeKIP1269(context.Background(), DefaultKafka, testjar.WorkerJar(t))
	if err != nil {
		t.Fatal(err)
	}
	if got != "" {
		t.Errorf("Kafka %s implements KIP-1269 as %q? The emulation would be skipped", DefaultKafka, got)
	}
}
