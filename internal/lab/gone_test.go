package lab

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
)

// goneDriver is a driver whose client process is gone (or not).
type goneDriver struct {
	gone   bool
	closed bool
}

func (g *goneDriver) Name() string                                              { return "fake" }
func (g *goneDriver) Check(map[string]string) error                             { return nil }
func (g *goneDriver) Close() error                                              { g.closed = true; return nil }
func (g *goneDriver) Gone() bool                                                { return g.gone }
func (g *goneDriver) Run(context.Context, driver.Trial) (*driver.Result, error) { return nil, nil }

// TestDeadWorkerReplaced: a cached driver whose worker is gone (crashed,
// or killed after a trial it would not end) is closed and replaced for the
// next trial, so the run goes on; a live one is kept.
func TestDeadWorkerReplaced(t *testing.T) {
	for _, tc := range []struct{ gone, watched bool }{{false, true}, {true, true}, {false, false}, {true, false}} {
		gone := tc.gone
		// watched=false: a later group's target over the shared cache,
		// which has not wrapped the driver yet.
		t.Run(fmt.Sprintf("gone=%v,watched=%v", tc.gone, tc.watched), func(t *testing.T) {
			var logged []string
			tg := &Target{
				cfg:     TargetConfig{Logf: func(f string, a ...any) { logged = append(logged, fmt.Sprintf(f, a...)) }},
				drivers: Drivers{},
				watched: map[string]driver.Driver{},
			}
			defer tg.drivers.Close()
			key := driver.Key("franz-go", cluster.ReleaseOrDefault(""))
			old := &goneDriver{gone: gone}
			tg.drivers[key] = old
			if tc.watched {
				tg.watched[key] = &watchedDriver{Driver: old, t: tg}
			}
			d, err := tg.Driver(t.Context(), "franz-go")
			if err != nil {
				t.Fatal(err)
			}
			replaced := d.(*watchedDriver).Driver != old
			if replaced != gone || old.closed != gone {
				t.Errorf("gone=%v: replaced %v, old closed %v", gone, replaced, old.closed)
			}
			if said := strings.Join(logged, "\n"); gone != strings.Contains(said, "its worker stopped; starting another") {
				t.Errorf("gone=%v: logged %q", gone, said)
			}
		})
	}
}
