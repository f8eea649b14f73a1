package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/testjar"
)

// TestPerfSecuredBootstrap runs `prodlab perf` with both clients against a
// SCRAM-over-TLS cluster reached as an existing one (--bootstrap-server),
// secured by --producer.config alone: prodlab creates the topic with the
// same credentials and the output never shows the password. A wrong
// password is named (SASL) instead of timing out.
func TestPerfSecuredBootstrap(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a Kafka broker")
	}
	// The java row runs the worker; outside make test nothing else names it.
	t.Setenv("PRODLAB_WORKER_JAR", testjar.WorkerJar(t))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// Detached: run() kills every child process it registered when it
	// returns, and this cluster must outlive the first run.
	c, err := cluster.Start(ctx, cluster.Config{Brokers: 1, Dir: t.TempDir(), Detached: true, Security: cluster.SecuritySASLSSL})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = c.Stop() }()
	props := c.ClientProps()
	_, rest, _ := strings.Cut(props["sasl.jaas.config"], `password="`)
	password, _, _ := strings.Cut(rest, `"`)
	tests := []struct {
		name, client string
		jaas         string
		wantCode     int
		want         string
	}{
		{"franz-go", "franz-go", props["sasl.jaas.config"], ExitOK, "records sent"},
		{"java", "java", props["sasl.jaas.config"], ExitOK, "records sent"},
		{"wrong password", "franz-go", strings.Replace(props["sasl.jaas.config"], password, "Xq7-not-it", 1), ExitFailure, "SASL authentication failed"},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var lines []string
			for _, k := range []string{"security.protocol", "ssl.truststore.type", "sasl.mechanism"} {
				lines = append(lines, k+"="+props[k])
			}
			// A properties file holds the PEM on one line, escaped.
			lines = append(lines, "ssl.truststore.certificates="+strings.ReplaceAll(strings.TrimSpace(props["ssl.truststore.certificates"]), "\n", `\n`))
			lines = append(lines, "sasl.jaas.config="+tt.jaas)
			config := filepath.Join(t.TempDir(), "client.properties")
			if err := os.WriteFile(config, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			var stdout, stderr bytes.Buffer
			code := run([]string{"perf", "--client", tt.client, "--bootstrap-server", strings.Join(c.Bootstrap(), ","),
				"--topic", fmt.Sprintf("perf-sec-%d", i), "--num-records", "2000", "--record-size", "100", "--throughput", "-1",
				"--producer.config", config}, &stdout, &stderr)
			out := stdout.String() + stderr.String()
			t.Logf("exit %d:\n%s", code, out)
			if code != tt.wantCode || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, want %d with %q", code, tt.wantCode, tt.want)
			}
			if strings.Contains(out, password) || strings.Contains(out, "Xq7-not-it") {
				t.Error("the output shows the password")
			}
		})
	}
}
