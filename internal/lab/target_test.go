package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/testtier"
)

// TestTargetExternal: a Target on an existing cluster (the shared broker)
// creates a missing topic and says so, readies an existing one without
// creating it, caches one driver per client, and leaves a shared driver
// cache open when it closes.
func TestTargetExternal(t *testing.T) {
	testtier.Shared(t)
	c := needCluster(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var log strings.Builder
	shared := Drivers{}
	defer shared.Close()
	tgt, err := StartTarget(ctx, TargetConfig{Bootstrap: c.Bootstrap(), Drivers: shared,
		Logf: func(f string, a ...any) { fmt.Fprintf(&log, f+"\n", a...) }})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(tgt.Bootstrap(), ","), strings.Join(c.Bootstrap(), ","); got != want {
		t.Errorf("Bootstrap() = %s, want %s", got, want)
	}
	if tgt.Embedded() {
		t.Error("a --bootstrap target says it is embedded")
	}

	topic := fmt.Sprintf("target-test-%d", time.Now().UnixNano())
	created, err := tgt.EnsureTopic(ctx, topic, 2, 1, map[string]string{"retention.ms": "600000"})
	if err != nil || !created {
		t.Fatalf("EnsureTopic(missing) = %v, %v; want created", created, err)
	}
	created, err = tgt.EnsureTopic(ctx, topic, 2, 1, nil)
	if err != nil || created {
		t.Fatalf("EnsureTopic(existing) = %v, %v; want ready, not created", created, err)
	}
	if err := tgt.DeleteTopic(ctx, topic); err != nil {
		t.Fatal(err)
	}

	d1, err := tgt.Driver(ctx, "franz-go")
	if err != nil {
		t.Fatal(err)
	}
	d2, err := tgt.Driver(ctx, "franz-go")
	if err != nil {
		t.Fatal(err)
	}
	if d1 != d2 || len(shared) != 1 {
		t.Errorf("Driver started %d drivers for one client (same instance: %v)", len(shared), d1 == d2)
	}
	if err := tgt.Close(); err != nil {
		t.Fatal(err)
	}
	if len(shared) != 1 {
		t.Error("Close closed the drivers of a shared cache")
	}
}

// TestTargetRefusals: contradictions are refused before anything starts.
func TestTargetRefusals(t *testing.T) {
	cases := []struct {
		name string
		cfg  TargetConfig
		want string
	}{
		// replication proxies need brokers prodlab starts
		{"replication on external", TargetConfig{Bootstrap: []string{"127.0.0.1:1"}, ZoneLinks: true}, "need an embedded cluster"},
		// SkipConnect only takes addresses as given
		{"skip without bootstrap", TargetConfig{SkipConnect: true}, "SkipConnect"},
		// proxies must list the brokers, which SkipConnect does not
		{"skip with proxies", TargetConfig{Bootstrap: []string{"127.0.0.1:1"}, SkipConnect: true, Proxies: true}, "SkipConnect"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := StartTarget(context.Background(), tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("StartTarget = %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// TestTargetSkipConnect: addresses are taken as given, nothing is
// contacted (the port is closed), the version is unknown and Close owns
// the target's own drivers.
func TestTargetSkipConnect(t *testing.T) {
	tgt, err := StartTarget(context.Background(), TargetConfig{Bootstrap: []string{"127.0.0.1:1"}, SkipConnect: true})
	if err != nil {
		t.Fatal(err)
	}
	if tgt.Version() != "" || tgt.Embedded() || tgt.Bootstrap()[0] != "127.0.0.1:1" {
		t.Errorf("version %q, embedded %v, bootstrap %v", tgt.Version(), tgt.Embedded(), tgt.Bootstrap())
	}
	if _, err := tgt.Driver(context.Background(), "franz-go"); err != nil {
		t.Fatal(err)
	}
	if err := tgt.Close(); err != nil {
		t.Fatal(err)
	}
	if len(tgt.drivers) != 0 {
		t.Error("Close left the target's own drivers open")
	}
}

// TestTargetRemovesData: closing an embedded target removes its nodes'
// data directories (a long run filled a 252 GB disk with deleted topics'
// files) and keeps the broker logs; KeepData keeps both.
func TestTargetRemovesData(t *testing.T) {
	testtier.Shared(t)
	if testing.Short() {
		t.Skip("integration test: starts a broker")
	}
	for _, keep := range []bool{false, true} {
		dir := t.TempDir()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		tgt, err := StartTarget(ctx, TargetConfig{Brokers: 1, Dir: dir, KeepData: keep})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		if err := tgt.Close(); err != nil {
			t.Fatal(err)
		}
		_, dataErr := os.Stat(filepath.Join(dir, "node-1", "data"))
		if _, err := os.Stat(filepath.Join(dir, "broker-1.log")); err != nil {
			t.Errorf("keep %v: broker log gone: %v", keep, err)
		}
		if keep != (dataErr == nil) {
			t.Errorf("keep %v: data directory stat error %v", keep, dataErr)
		}
	}
}
