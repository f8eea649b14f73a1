package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/maven"
)

// TestClusterUpDownRefusedWhileLocked: while another `cluster up` holds the
// state lock, `up` and `down` are refused at once (exit 1) with a message
// naming the lock, before anything starts or stops.
func TestClusterUpDownRefusedWhileLocked(t *testing.T) {
	t.Setenv(maven.CacheEnv, t.TempDir())
	unlock, err := cluster.LockState(cluster.DefaultStatePath())
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	for _, args := range [][]string{{"cluster", "up"}, {"cluster", "down"}} {
		var out, errOut bytes.Buffer
		code := run(args, &out, &errOut)
		if code != ExitFailure || !strings.Contains(errOut.String(), "another prodlab cluster up or down (pid ") ||
			!strings.Contains(errOut.String(), "cluster.json.lock") {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and the lock named", args, code, errOut.String(), ExitFailure)
		}
	}
}
