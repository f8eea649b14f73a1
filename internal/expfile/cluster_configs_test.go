package expfile

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestClusterConfigs checks that cluster.configs, cluster.controllers and
// the matrix axis cluster.configs.<name> are read, become distinct
// clusters, and survive YAML() and back.
func TestClusterConfigs(t *testing.T) {
	tests := []struct {
		name     string
		src      string
		sets     []string
		configs  []map[string]string // per scenario
		clusters int
		extras   []string // of the first scenario's cluster
	}{
		{
			name:     "mapping",
			src:      "name: x\ncluster: {brokers: 3, controllers: 3, configs: {num.network.threads: 8, log.flush.interval.messages: 1}}\n",
			configs:  []map[string]string{{"num.network.threads": "8", "log.flush.interval.messages": "1"}},
			clusters: 1,
			extras:   []string{"3 controllers", "log.flush.interval.messages=1", "num.network.threads=8"},
		},
		{
			name:     "matrix axis",
			src:      "name: x\nmatrix:\n  cluster.configs.num.network.threads: [3, 8]\n",
			configs:  []map[string]string{{"num.network.threads": "3"}, {"num.network.threads": "8"}},
			clusters: 2,
			extras:   []string{"num.network.threads=3"},
		},
		{
			name:     "set",
			src:      "name: x\n",
			sets:     []string{"cluster.configs.compression.type=lz4"},
			configs:  []map[string]string{{"compression.type": "lz4"}},
			clusters: 1,
			extras:   []string{"compression.type=lz4"},
		},
		{
			name:     "kafka axis",
			src:      "name: x\nmatrix:\n  cluster.kafka: [3.9.1, 4.4.0]\n",
			configs:  []map[string]string{nil, nil},
			clusters: 2,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := mustParse(t, tt.src, tt.sets...)
			scs, err := e.Scenarios()
			if err != nil {
				t.Fatal(err)
			}
			var got []map[string]string
			for _, sc := range scs {
				got = append(got, sc.Exp.Cluster.Configs)
			}
			if !reflect.DeepEqual(got, tt.configs) {
				t.Errorf("configs = %v, want %v", got, tt.configs)
			}
			if n := clusterLayouts(scs); n != tt.clusters {
				t.Errorf("clusters = %d, want %d", n, tt.clusters)
			}
			if x := scs[0].Exp.Cluster.Extras(); !reflect.DeepEqual(x, tt.extras) {
				t.Errorf("Extras = %q, want %q", x, tt.extras)
			}
			y, err := e.YAML()
			if err != nil {
				t.Fatal(err)
			}
			back := mustParse(t, string(y))
			if !reflect.DeepEqual(back.Cluster.Configs, e.Cluster.Configs) || back.Cluster.Controllers != e.Cluster.Controllers {
				t.Errorf("YAML round trip: %v/%d, want %v/%d\n%s", back.Cluster.Configs, back.Cluster.Controllers, e.Cluster.Configs, e.Cluster.Controllers, y)
			}
		})
	}
}

// TestClusterConfigsRefused checks the errors of bad cluster settings,
// each with its place in the file.
func TestClusterConfigsRefused(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"not a mapping", "name: x\ncluster: {configs: 3}\n", "x.yaml:2:20: cluster.configs must be a mapping"},
		{"bad name", "name: x\ncluster: {configs: {Num Threads: 3}}\n", `x.yaml:2:21: cluster.configs: "Num Threads" is not a broker property name`},
		{"two lines", "name: x\ncluster: {configs: {a.b: \"1\\n2\"}}\n", "cluster.configs.a.b must be one line"},
		{"controllers", "name: x\ncluster: {controllers: 6}\n", `cluster.controllers must be an integer in 0..5, got "6"`},
		{"brokers", "name: x\ncluster: {brokers: 10}\n", `cluster.brokers must be an integer in 1..9, got "10"`},
		{"matrix name", "name: x\nmatrix:\n  cluster.configs.a..b: [1, 2]\n", `unknown key "cluster.configs.a..b"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse("x.yaml", []byte(tt.src), nil)
			var errs Errors
			if !errors.As(err, &errs) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Parse error = %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// TestUnknownBrokerConfig checks the message for a property the broker
// does not define: placed where it was set, with the closest known name.
func TestUnknownBrokerConfig(t *testing.T) {
	e := mustParse(t, "name: x\ncluster:\n  configs:\n    num.netwrok.threads: 3\n")
	known := []string{"num.io.threads", "num.network.threads"}
	got := e.UnknownBrokerConfig("num.netwrok.threads", "4.4.0", known).Error()
	want := `x.yaml:4:5: cluster.configs: Kafka 4.4.0 does not define broker property "num.netwrok.threads"; did you mean "num.network.threads"?`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestClusterKeyDefaults: a default written out and one left unset share a
// cluster; any other value needs its own.
func TestClusterKeyDefaults(t *testing.T) {
	tests := []struct {
		name string
		a, b Cluster
		same bool
	}{
		{"cpus auto", Cluster{}, Cluster{CPUs: CPUsAuto}, true},
		{"storage disk", Cluster{}, Cluster{Storage: StorageDisk}, true},
		{"security plaintext", Cluster{}, Cluster{Security: SecurityPlaintext}, true},
		{"cpus split", Cluster{}, Cluster{CPUs: CPUsSplit}, false},
		{"storage memory", Cluster{Storage: StorageDisk}, Cluster{Storage: StorageMemory}, false},
		{"security ssl", Cluster{}, Cluster{Security: SecuritySSL}, false},
		{"broker setting", Cluster{}, Cluster{Configs: map[string]string{"num.io.threads": "4"}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.a.Key() == tt.b.Key(); got != tt.same {
				t.Errorf("%q and %q: same cluster %v, want %v", tt.a.Key(), tt.b.Key(), got, tt.same)
			}
		})
	}
}
