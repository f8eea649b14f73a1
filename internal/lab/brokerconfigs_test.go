package lab

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/testtier"
)

// TestGroupByClusterSettings checks that scenarios differing in broker
// settings, controllers or release get clusters (and directories) of their
// own, while equal settings share one.
func TestGroupByClusterSettings(t *testing.T) {
	tests := []struct {
		name   string
		src    string
		groups []int    // scenarios per group
		dirs   []string // cluster directory names
	}{
		{"one cluster", "name: x\ncluster: {configs: {num.io.threads: 4}}\nmatrix: {linger.ms: [0, 5]}\n", []int{2}, []string{"cluster-1"}},
		{"broker setting axis", "name: x\nmatrix:\n  cluster.configs.num.network.threads: [3, 8]\n  linger.ms: [0, 5]\n", []int{2, 2}, []string{"cluster-1", "cluster-1-2"}},
		{"release axis", "name: x\nmatrix: {cluster.kafka: [3.9.1, 4.4.0]}\n", []int{1, 1}, []string{"cluster-1", "cluster-1-2"}},
		{"controllers axis", "name: x\ncluster: {brokers: 3}\nmatrix: {cluster.controllers: [0, 3]}\n", []int{1, 1}, []string{"cluster-3", "cluster-3-2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, scs := planYAML(t, "x.yaml", tt.src)
			gs := groupByCluster(scs)
			if len(gs) != len(tt.groups) {
				t.Fatalf("%d groups, want %d", len(gs), len(tt.groups))
			}
			for i, g := range gs {
				if len(g.scs) != tt.groups[i] || clusterDirName(g) != tt.dirs[i] {
					t.Errorf("group %d: %d scenarios in %s, want %d in %s", i, len(g.scs), clusterDirName(g), tt.groups[i], tt.dirs[i])
				}
			}
		})
	}
}

// TestCheckClustersRefuses checks the checks made before anything starts:
// an unknown broker property is placed and gets the closest name (from
// cached definitions, so no JVM runs), and too many nodes for the memory
// are refused.
func TestCheckClustersRefuses(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("PRODLAB_CACHE", cache)
	if err := os.MkdirAll(filepath.Join(cache, "broker-configs"), 0o755); err != nil {
		t.Fatal(err)
	}
	def := "num.io.threads\tINT\nnum.network.threads\tINT\n"
	if err := os.WriteFile(filepath.Join(cache, "broker-configs", "4.4.0.tsv"), []byte(def), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, src, want string
	}{
		{"known", "name: x\ncluster: {kafka: 4.4.0, configs: {num.io.threads: 4}}\n", ""},
		{"typo", "name: x\ncluster:\n  kafka: 4.4.0\n  configs: {num.netwrok.threads: 4}\n",
			`x.yaml:4:13: cluster.configs: Kafka 4.4.0 does not define broker property "num.netwrok.threads"; did you mean "num.network.threads"?`},
		{"matrix typo", "name: x\ncluster: {kafka: 4.4.0}\nmatrix:\n  cluster.configs.num.netwrok.threads: [1, 2]\n",
			`x.yaml:4:41: cluster.configs: Kafka 4.4.0 does not define broker property "num.netwrok.threads"; did you mean "num.network.threads"?`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, scs := planYAML(t, "x.yaml", tt.src)
			err := checkClusters(context.Background(), scs, "")
			if tt.want == "" {
				if err != nil {
					t.Fatalf("checkClusters = %v, want nil", err)
				}
				return
			}
			if err == nil || err.Error() != tt.want {
				t.Fatalf("checkClusters = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestBrokerVersionsAndSettingsSideBySide runs one experiment whose matrix
// crosses two broker releases with a broker setting: four clusters, one
// after the other, each in its own directory, each trial recorded against
// its release, and each broker started with its scenario's setting. The
// clusters' rounds alternate, warm-up rounds too: warming them one after
// the other would leave the first idle until the last is warm.
func TestBrokerVersionsAndSettingsSideBySide(t *testing.T) {
	testtier.Shared(t)
	if testing.Short() {
		t.Skip("starts four Kafka clusters")
	}
	src := "name: sidebyside\nclient: franz-go\nworkload: {records: 2000, record.size: 100}\nwarmup: 2\ntrials: 2\n" +
		"matrix:\n  cluster.kafka: [3.9.1, 4.4.0]\n  cluster.configs.num.network.threads: [3, 5]\n"
	exp, scs := planYAML(t, "sidebyside.yaml", src)
	start := time.Now()
	dir, recs, log := runEmbedded(t, exp, scs, 5*time.Minute)
	t.Logf("4 clusters, 16 trials in %v; run log:\n%s", time.Since(start).Round(time.Millisecond), log)
	if len(recs) != 16 {
		t.Fatalf("%d records, want 16", len(recs))
	}
	// The four clusters are up together and the rounds alternate between
	// them: round 0 in scenario order, round 1 rotated by one (no cluster
	// runs two rounds back to back); the two warm-up rounds first, the
	// same way.
	for i, r := range recs {
		j := i % 8
		want := scs[(j/4+j%4)%4].ID
		warm := i < 8
		if r.ScenarioID != want || r.Trial != j/4 || r.Warmup != warm {
			t.Errorf("record %d: %s trial %d warm-up %v, want %s trial %d warm-up %v", i, r.ScenarioID, r.Trial, r.Warmup, want, j/4, warm)
		}
		if !warm && (r.Warmed == nil || r.Warmed.Rounds != 2) {
			t.Errorf("record %d: warmed %+v, want 2 rounds", i, r.Warmed)
		}
	}
	if !strings.Contains(log, "rounds alternate") {
		t.Error("the log does not say the rounds alternate between clusters")
	}
	for _, r := range recs {
		if r.Error != "" || !strings.Contains(r.ScenarioID, "cluster.kafka="+r.Kafka) {
			t.Errorf("record %s: kafka %q, error %q", r.ScenarioID, r.Kafka, r.Error)
		}
	}
	for i, want := range []string{"3", "5", "3", "5"} {
		name := "cluster-1"
		if i > 0 {
			name = fmt.Sprintf("cluster-1-%d", i+1)
		}
		props, err := os.ReadFile(filepath.Join(dir, name, "node-1", "server.properties"))
		if err != nil || !strings.Contains(string(props), "num.network.threads="+want+"\n") {
			t.Errorf("%s: num.network.threads=%s not in server.properties (%v)", name, want, err)
		}
	}
}

// block is a run of consecutive trials on one cluster (named by its
// num.network.threads): its opening scenario and its number of trials.
type block struct {
	cluster, opener string
	trials          int
}

// clusterBlocks splits recs, in the order they ran, into blocks of one
// cluster each; a failed trial fails the test.
func clusterBlocks(t *testing.T, recs []results.Record) []block {
	t.Helper()
	var bs []block
	for _, r := range recs {
		if r.Error != "" {
			t.Errorf("%s trial %d: %s", r.ScenarioID, r.Trial, r.Error)
		}
		c := fmt.Sprint(r.Scenario["cluster.configs.num.network.threads"])
		if len(bs) == 0 || bs[len(bs)-1].cluster != c {
			bs = append(bs, block{cluster: c, opener: r.ScenarioID})
		}
		bs[len(bs)-1].trials++
	}
	return bs
}

// runEmbedded runs scs of exp on embedded clusters within timeout and
// returns the run's directory, its records and its log; a failed run
// fails the test with the log.
func runEmbedded(t *testing.T, exp *expfile.Experiment, scs []expfile.Scenario, timeout time.Duration) (string, []results.Record, string) {
	t.Helper()
	dir := t.TempDir()
	var log strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	if _, err := Run(ctx, exp, scs, Options{Dir: dir, Log: &log}); err != nil {
		t.Fatalf("%v; run log:\n%s", err, log.String())
	}
	recs, err := results.Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, recs, log.String()
}
