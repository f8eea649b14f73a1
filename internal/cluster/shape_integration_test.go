package cluster

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/testtier"
)

// workerJarForTest returns the worker jar the broker-config checks need,
// or skips.
func workerJarForTest(t *testing.T) string {
	t.Helper()
	jar := os.Getenv("PRODLAB_WORKER_JAR")
	if jar == "" {
		t.Skip("PRODLAB_WORKER_JAR not set")
	}
	if _, err := os.Stat(jar); err != nil {
		t.Skipf("worker jar: %v", err)
	}
	return jar
}

// TestBrokerConfigsApplied starts a broker with cluster.configs-style
// extra properties and checks that the broker itself reports them in
// DescribeConfigs, with a value differing from prodlab's default.
func TestBrokerConfigsApplied(t *testing.T) { // and the features formatted
	testtier.Shared(t)
	extra := map[string]string{"num.network.threads": "5", "log.flush.interval.messages": "1000"}
	// transaction.version 1 rather than 4.x's default 2: the storage is
	// formatted with it (Config.Features), and the cluster finalizes it.
	c := startCluster(t, Config{Brokers: 1, ExtraProps: extra, Features: map[string]int{"transaction.version": 1}})
	adm, err := NewAdmin(c.Bootstrap())
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	rcs, err := adm.Kadm().DescribeBrokerConfigs(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	rc, err := rcs.On("1", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, cfg := range rc.Configs {
		got[cfg.Key] = cfg.MaybeValue()
	}
	for k, v := range extra {
		if got[k] != v {
			t.Errorf("DescribeConfigs %s = %q, want %q", k, got[k], v)
		}
	}
	features, err := adm.Features(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if features["transaction.version"] != 1 {
		t.Errorf("finalized transaction.version %d, want 1 as formatted (features %v)", features["transaction.version"], features)
	}
	if got["num.io.threads"] != "4" {
		t.Errorf("num.io.threads = %q, want prodlab's 4 (untouched)", got["num.io.threads"])
	}
}

// TestSeparateControllers starts a broker with a quorum of 3 separate
// KRaft controllers and checks that a topic is created and served, that
// the controllers do not appear as brokers, and that every node's heap
// came from the memory rule. One broker, not three: replication across
// brokers is TestThreeNodes', and each broker JVM costs the suite seconds.
func TestSeparateControllers(t *testing.T) {
	testtier.Shared(t)
	c := startCluster(t, Config{Brokers: 1, Controllers: 3})
	if n := len(c.Brokers()); n != 1 {
		t.Fatalf("%d brokers, want 1", n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ids, err := metadataIDs(ctx, c.Bootstrap()[0])
	if err != nil || len(ids) != 1 {
		t.Fatalf("metadata brokers = %v, %v; want the one broker, no controller", ids, err)
	}
	adm, err := NewAdmin(c.Bootstrap())
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	start := time.Now()
	if err := adm.CreateTopic(ctx, "t", 6, 1, nil); err != nil {
		t.Fatal(err)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.Bootstrap()...), kgo.RequiredAcks(kgo.AllISRAcks()), kgo.DefaultProduceTopic("t"))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	for i := range 30 {
		if err := cl.ProduceSync(ctx, &kgo.Record{Value: []byte{byte(i)}}).FirstErr(); err != nil {
			t.Fatalf("produce with acks=all: %v", err)
		}
	}
	t.Logf("topic created and 30 records acked in %v", time.Since(start).Round(time.Millisecond))
	for _, n := range c.controllers {
		data, err := os.ReadFile(n.config)
		if err != nil || !strings.Contains(string(data), "process.roles=controller\n") {
			t.Errorf("controller %d config: %v\n%s", n.spec.ID, err, data)
		}
	}
	data, _ := os.ReadFile(filepath.Join(c.cfg.Dir, "broker-1.log"))
	if !strings.Contains(string(data), "-Xmx") {
		t.Errorf("broker 1 log does not show its heap flags")
	}
}

// TestBrokerConfigDefReleases reads the broker definitions of two releases
// through the worker and a local distribution directory, and checks a few
// names each must (and must not) define.
func TestBrokerConfigDefReleases(t *testing.T) {
	testtier.Shared(t)
	if testing.Short() {
		t.Skip("runs a JVM on the broker's jars")
	}
	jar := workerJarForTest(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, tt := range []struct {
		kafka     string
		want, not []string
	}{
		{"3.9.1", []string{"num.network.threads", "zookeeper.connect"}, []string{"share.coordinator.state.topic.replication.factor.x"}},
		{"4.4.0", []string{"num.network.threads", "log.flush.interval.messages", "compression.type"}, []string{"zookeeper.connect"}},
	} {
		d, err := resolveDist(ctx, tt.kafka)
		if err != nil {
			t.Fatal(err)
		}
		raw, err := readConfigDef(ctx, tt.kafka, jar)
		if err != nil {
			t.Fatal(err)
		}
		def, err := parseConfigDef(raw)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("kafka %s defines %d broker properties", tt.kafka, len(def))
		for _, n := range tt.want {
			if _, ok := def[n]; !ok {
				t.Errorf("kafka %s: %s not defined", tt.kafka, n)
			}
		}
		for _, n := range tt.not {
			if _, ok := def[n]; ok {
				t.Errorf("kafka %s: %s defined", tt.kafka, n)
			}
		}
		if tt.kafka != "4.4.0" {
			continue
		}
		// A local distribution: its libs are read the same way.
		dir := t.TempDir()
		libs := filepath.Join(dir, "libs")
		if err := os.MkdirAll(libs, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, j := range strings.Split(d.classpath, string(os.PathListSeparator)) {
			if err := os.Symlink(j, filepath.Join(libs, filepath.Base(j))); err != nil {
				t.Fatal(err)
			}
		}
		local, err := BrokerConfigDef(ctx, dir, jar)
		if err != nil {
			t.Fatal(err)
		}
		if len(local) != len(def) {
			t.Errorf("distribution directory: %d properties, release: %d", len(local), len(def))
		}
	}
}
