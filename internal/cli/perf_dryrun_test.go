package cli

import (
	"bytes"
	"strings"
	"testing"
)

// TestPerfDryRun: perf --dry-run prints what would run with its secrets
// hidden and exits 0, and bad input still exits 2; nothing starts (no
// broker listens at the bootstrap address given).
func TestPerfDryRun(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"embedded", []string{"--topic", "t", "--num-records", "10", "--record-size", "100"}, ExitOK,
			"dry run of perf: 10 records (0 warm-up) to t on an embedded 1-broker cluster with java; producer properties: client.id=perf-producer-client; nothing started\n"},
		{"secret hidden", []string{"--bootstrap-server", "127.0.0.1:1", "--topic", "t", "--num-records", "10", "--record-size", "100",
			"--producer-props", "sasl.jaas.config=hunter2"}, ExitOK,
			"dry run of perf: 10 records (0 warm-up) to t on 127.0.0.1:1 with java; producer properties: client.id=perf-producer-client sasl.jaas.config=[hidden]; nothing started\n"},
		// A password inside a URL is hidden whatever its key is called.
		{"password in a URL", []string{"--bootstrap-server", "127.0.0.1:1", "--topic", "t", "--num-records", "10", "--record-size", "100",
			"--producer-props", "sasl.oauthbearer.token.endpoint.url=https://app:hunter2@idp.example/token"}, ExitOK,
			"dry run of perf: 10 records (0 warm-up) to t on 127.0.0.1:1 with java; producer properties: client.id=perf-producer-client sasl.oauthbearer.token.endpoint.url=https://[hidden]@idp.example/token; nothing started\n"},
		{"bad input", []string{"--topic", "t", "--num-records", "0", "--record-size", "100"}, ExitUsage, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(append(append([]string{"perf"}, tt.args...), "--dry-run"), &out, &errOut)
			if code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", code, tt.code, errOut.String())
			}
			if tt.want != "" && out.String() != tt.want {
				t.Errorf("stdout %q, want %q", out.String(), tt.want)
			}
			if strings.Contains(out.String()+errOut.String(), "hunter2") {
				t.Errorf("the secret is shown: %s%s", out.String(), errOut.String())
			}
		})
	}
}
