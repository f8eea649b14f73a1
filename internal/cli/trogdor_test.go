package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/trogdor"
)

// TestTrogdorCommandsWithoutFleet covers `prodlab trogdor` where nothing
// starts: bad input (exit 2), no fleet, a stale state whose daemons are gone
// (its status says so without asking the coordinator, and its URL is not
// printed as if it were up), and a held state lock.
func TestTrogdorCommandsWithoutFleet(t *testing.T) {
	stale := trogdor.State{Release: "4.3.1", URL: "http://127.0.0.1:1", Dir: "/nowhere",
		Coordinator: trogdor.Node{Name: trogdor.CoordinatorName, Port: 1, PID: 0},
		Agents:      []trogdor.Node{{Name: trogdor.AgentName(1), Port: 2}}}
	for _, tc := range []struct {
		name     string
		args     []string
		state    *trogdor.State
		lock     bool
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{name: "no agents", args: []string{"trogdor", "up", "--agents", "0"}, wantCode: ExitUsage, wantErr: "--agents must be between 1 and 8"},
		{name: "extra argument", args: []string{"trogdor", "status", "x"}, wantCode: ExitUsage},
		{name: "status of nothing", args: []string{"trogdor", "status"}, wantCode: ExitFailure, wantErr: "no trogdor fleet is up"},
		{name: "down of nothing", args: []string{"trogdor", "down"}, wantCode: 0, wantErr: "no trogdor fleet is up"},
		{name: "stale status", args: []string{"trogdor", "status"}, state: &stale, wantCode: ExitFailure,
			wantOut: "0 of 2 node(s) running", wantErr: "no node of the recorded trogdor fleet is running"},
		{name: "stale url", args: []string{"trogdor", "status", "--url"}, state: &stale, wantCode: ExitFailure, wantErr: "no trogdor fleet is up"},
		{name: "stale down", args: []string{"trogdor", "down"}, state: &stale, wantCode: 0, wantErr: "trogdor fleet stopped"},
		{name: "up while locked", args: []string{"trogdor", "up"}, lock: true, wantCode: ExitFailure, wantErr: "another prodlab trogdor up or down"},
		{name: "down while locked", args: []string{"trogdor", "down"}, lock: true, wantCode: ExitFailure, wantErr: "trogdor.json.lock"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(maven.CacheEnv, t.TempDir())
			if tc.state != nil {
				if err := trogdor.SaveState(trogdor.DefaultStatePath(), *tc.state); err != nil {
					t.Fatal(err)
				}
			}
			if tc.lock {
				unlock, err := trogdor.LockState(trogdor.DefaultStatePath())
				if err != nil {
					t.Fatal(err)
				}
				defer unlock()
			}
			var out, errOut bytes.Buffer
			code := run(tc.args, &out, &errOut)
			if code != tc.wantCode || !strings.Contains(out.String(), tc.wantOut) || !strings.Contains(errOut.String(), tc.wantErr) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
					tc.args, code, out.String(), errOut.String(), tc.wantCode, tc.wantOut, tc.wantErr)
			}
		})
	}
}
