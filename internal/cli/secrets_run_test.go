package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/testtier"
)

// TestRunScrubsSecretsByValue plants a marker password in an OAuth token
// endpoint's URL, a route no key masks: the Java client refuses the URL
// and quotes it whole in its error, which reaches the terminal, the
// trial's record, the table, the report and the worker's log. The marker
// is in none of them, and the error is (scrubbed), so the route ran.
func TestRunScrubsSecretsByValue(t *testing.T) {
	testtier.Shared(t)
	if testing.Short() {
		t.Skip("starts a broker and the Java worker")
	}
	const marker = "url-marker-pw-3141"
	dir := t.TempDir()
	exp := filepath.Join(dir, "sec.yaml")
	if err := os.WriteFile(exp, []byte(`name: sec
workload: {records: 200, record.size: 100, timeout.s: 60}
trials: 1
warmup: 0
client: java
producer:
  security.protocol: SASL_PLAINTEXT
  sasl.mechanism: OAUTHBEARER
  sasl.jaas.config: org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;
  sasl.login.callback.handler.class: org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler
  sasl.oauthbearer.token.endpoint.url: https://app:`+marker+`@127.0.0.1:1/token
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", exp, "--out", out}, &stdout, &stderr)
	terminal := stdout.String() + stderr.String()
	if code != ExitFailure {
		t.Errorf("exit %d, want %d (the trial fails)", code, ExitFailure)
	}
	if !strings.Contains(terminal, "app:[hidden]@127.0.0.1:1/token") {
		t.Errorf("the terminal does not show the client's error, scrubbed:\n%s", terminal)
	}
	if strings.Contains(terminal, marker) {
		t.Errorf("the terminal shows the secret:\n%s", terminal)
	}
	n := 0
	err := filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if strings.Contains(string(b), marker) {
			t.Errorf("%s holds the secret", path)
		}
		return nil
	})
	if err != nil || n < 5 {
		t.Errorf("walked %d files of the run directory: %v", n, err)
	}
}
