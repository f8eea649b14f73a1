package lab

import (
	"maps"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
)

// TestCheckExternal: broker faults and replication delay need an embedded
// cluster; connection cuts work through the proxies on any cluster.
func TestCheckExternal(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // substring of the error; "" = accepted
	}{
		// Connection cuts are the proxies' job: fine on --bootstrap.
		{"cuts", "name: x\nfaults: [{type: connection.cut, every: 5}]\n", ""},
		// prodlab cannot signal another cluster's brokers.
		{"kill", "name: x\nfaults: [{type: broker.kill, at.ms: 5}]\n", "fault broker.kill needs an embedded cluster"},
		// Unless a Trogdor agent on the broker's host pauses it for prodlab
		// (checked against the fleet by PlanTrogdor).
		{"pause without a fleet", "name: x\nfaults: [{type: broker.pause, at.ms: 5}]\n", "or a Trogdor fleet with an agent on the broker's host"},
		{"pause on a fleet", "name: x\ntrogdor: {coordinator: 'http://c:1'}\nfaults: [{type: broker.pause, at.ms: 5}]\n", ""},
		{"kill on a fleet", "name: x\ntrogdor: {coordinator: 'http://c:1'}\nfaults: [{type: broker.kill, at.ms: 5}]\n",
			"fault broker.kill needs an embedded cluster (drop --bootstrap): on an existing cluster a Trogdor fleet delivers only broker.pause"},
		// Nor reroute its replication.
		{"replication rtt", "name: x\nnetwork: {replication.rtt.ms: 20}\n", "network.replication.rtt.ms needs an embedded cluster"},
		// An objective prodlab cannot measure there would spend the whole
		// budget on "no candidate held the rate".
		{"advise on brokers' CPU", "name: x\nworkload: {rate: 1000, duration.s: 2}\nadvise: {objective: cpu.brokers, space: {linger.ms: [0, 5]}, budget: 10m}\n",
			"advise.objective cpu.brokers needs an embedded cluster"},
		{"advise on client CPU", "name: x\nworkload: {rate: 1000, duration.s: 2}\nadvise: {objective: cpu.client, space: {linger.ms: [0, 5]}, budget: 10m}\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			exp, err := expfile.Parse("x.yaml", []byte(tt.src), nil)
			if err != nil {
				t.Fatal(err)
			}
			scs, err := Plan(exp)
			if err != nil {
				t.Fatal(err)
			}
			err = CheckExternal(scs)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("err = %v, want none", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("err = %v, want %q", err, tt.want)
			}
		})
	}
}

// TestPlanRejectsWhatFranzGoCannotHonour: a property the client cannot
// honour is an error naming the property and the client, before anything
// starts.
func TestPlanRejectsWhatFranzGoCannotHonour(t *testing.T) {
	exp, err := expfile.Parse("x.yaml", []byte("name: x\nclient: franz-go\nproducer: {max.request.size: 2000000}\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Plan(exp)
	if err == nil || !strings.Contains(err.Error(), "max.request.size is not supported by client franz-go") {
		t.Errorf("err = %v", err)
	}
}

// TestProblemsOncePerDistinct: a mistake shared by many scenarios is one
// message saying where, not one per scenario.
func TestProblemsOncePerDistinct(t *testing.T) {
	var p problems
	for _, sc := range []string{"a", "b", "c"} {
		p.add("shared mistake", sc)
	}
	p.add("own mistake", "b")
	got := p.err(3).Error()
	want := "shared mistake (every scenario)\nscenario b: own mistake"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var two problems
	two.add("m", "a")
	two.add("m", "b")
	if got := two.err(3).Error(); got != "m (2 scenarios: a; b)" {
		t.Errorf("got %q", got)
	}
	var none problems
	if none.err(3) != nil {
		t.Error("no problems gave an error")
	}
}

// TestJVMOpts: the JVM options added through the environment are
// recorded by role, trimmed, and not at all when none are set.
func TestJVMOpts(t *testing.T) {
	cases := []struct {
		broker, worker string
		want           map[string]string
	}{
		{"", "", nil},
		{" -XX:TieredStopAtLevel=1 ", "", map[string]string{"broker": "-XX:TieredStopAtLevel=1"}},
		{"-Xmx2g", "-Xmx1g  -Dx=1", map[string]string{"broker": "-Xmx2g", "worker": "-Xmx1g -Dx=1"}},
	}
	for _, tc := range cases {
		t.Setenv(cluster.BrokerJVMOptsEnv, tc.broker)
		t.Setenv(driver.WorkerJVMOptsEnv, tc.worker)
		if got := jvmOpts(); !maps.Equal(got, tc.want) || (got == nil) != (tc.want == nil) {
			t.Errorf("broker %q worker %q: %v, want %v", tc.broker, tc.worker, got, tc.want)
		}
	}
}
