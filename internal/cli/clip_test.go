package cli

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/proc"
)

// TestHugeOrBinaryInputsClipped checks that inputs holding megabytes or
// binary bytes are refused (exit 2) with a short message that quotes no
// raw control bytes, so that the terminal is neither flooded nor
// reprogrammed by escapes (issue 21, item 4).
func TestHugeOrBinaryInputsClipped(t *testing.T) {
	t.Setenv("PRODLAB_WORKER_JAR", filepath.Join(t.TempDir(), "no-worker.jar"))
	t.Setenv(maven.CacheEnv, t.TempDir())
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	bin := make([]byte, 5000)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range bin {
		bin[i] = byte(rng.IntN(256))
	}
	copy(bin[100:], "\x1b[2J\x1b]0;pwned\x07") // clear screen, set title
	binary := write("binary.properties", bin)
	longKey := write("long.properties", []byte(strings.Repeat("k", 1_000_000)+"=1\n"))
	longYAML := write("long.yaml", []byte("name: x\nclient: java\nproducer: {"+strings.Repeat("c", 900_000)+": 1}\n"))
	perf := []string{"perf", "--topic", "t", "--num-records", "1", "--record-size", "1", "--bootstrap-server", guardBootstrap}
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"binary --producer.config", append(perf, "--producer.config", binary), "line 1 holds byte 0x"},
		{"1 MB property name in --producer.config", append(perf, "--producer.config", longKey), `"kkkk`},
		{"900 KB producer key in a file", []string{"run", longYAML, "--bootstrap", guardBootstrap}, `unknown key "cccc`},
		{"100 KB --set key", []string{"run", "record-size", "--bootstrap", guardBootstrap, "--set", strings.Repeat("d", 100_000) + "=1"}, "…"},
		{"100 KB --set value", []string{"run", "record-size", "--bootstrap", guardBootstrap, "--set", "linger.ms=" + strings.Repeat("9", 100_000)}, "…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, stdout, stderr, _, ok := runWithin(tt.args, badInputLimit)
			if !ok {
				proc.KillAll()
				t.Fatalf("still running after %s", badInputLimit)
			}
			if code != ExitUsage || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, want %d and %q in:\n%.500s", code, ExitUsage, tt.want, stderr)
			}
			out := stdout + stderr
			if len(out) > 4000 {
				t.Errorf("%d bytes of output, want a short message", len(out))
			}
			if bytes.ContainsAny([]byte(out), "\x1b\x07\x00") {
				t.Errorf("output holds raw control bytes: %.300q", out)
			}
		})
	}
}
