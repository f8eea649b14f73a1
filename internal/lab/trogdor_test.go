package lab

import (
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/trogdor"
)

// TestChooseAgents checks the agents a run may use against what the probe
// found: every answering agent by default, and a refusal, with its
// reason, for an unknown or silent node, another task API, mixed
// kafka-clients releases and a trogdor release before 3.0.
func TestChooseAgents(t *testing.T) {
	agent := func(name, release string, api int) trogdor.AgentInfo {
		return trogdor.AgentInfo{Node: name, Hostname: "127.0.0.1", KafkaClients: release, TaskAPI: api}
	}
	fleet := func(as ...trogdor.AgentInfo) trogdor.Probed {
		f := trogdor.Probed{Answered: map[string]trogdor.AgentInfo{}, Known: []string{"a", "b", "c"}}
		for _, a := range as {
			f.Answered[a.Node] = a
		}
		return f
	}
	ok := fleet(agent("a", "4.3.1", trogdor.TaskAPI), agent("b", "4.3.1", trogdor.TaskAPI))
	for _, tc := range []struct {
		name  string
		f     trogdor.Probed
		named []string
		want  string // the chosen nodes and their release, "a,b@4.3.1"
		err   string // a substring of the refusal; "" when the agents are accepted
	}{
		{"every agent that answered", ok, nil, "a,b@4.3.1", ""},
		{"named", ok, []string{"b"}, "b@4.3.1", ""},
		{"named, other release", fleet(agent("a", "4.3.1", trogdor.TaskAPI), agent("b", "3.9.1", trogdor.TaskAPI)), []string{"b"}, "b@3.9.1", ""},
		{"unknown", ok, []string{"z"}, "", `node "z" is not an agent of this fleet; its agents: a, b, c`},
		{"silent", ok, []string{"c"}, "", "agent c did not answer the probe"},
		{"another task API", fleet(agent("a", "4.3.1", trogdor.TaskAPI+1)), nil, "", "runs prodlab's Trogdor task API 2, this prodlab speaks 1"},
		{"mixed releases", fleet(agent("a", "4.3.1", trogdor.TaskAPI), agent("b", "3.9.1", trogdor.TaskAPI)), nil, "",
			"the agents run different kafka-clients releases (3.9.1 on b; 4.3.1 on a)"},
		{"trogdor before 3.0", fleet(agent("a", "2.8.2", trogdor.TaskAPI)), nil, "", "the agents run kafka-clients 2.8.2: release 2.8.2 is older than 3.0, the oldest whose task API prodlab's task is built for"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nodes, release, err := chooseAgents(tc.f, tc.named)
			if tc.err != "" || err != nil {
				if err == nil || tc.err == "" || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if got := strings.Join(nodes, ",") + "@" + release; got != tc.want {
				t.Errorf("chose %s, want %s", got, tc.want)
			}
		})
	}
}

// TestFleetAgentsForFaults: a fault may be delivered by any agent that
// answered the probe, not only by the agents the trials run on; loopback
// hosts match each other; and the refusal's list names every agent.
func TestFleetAgentsForFaults(t *testing.T) {
	f := &Fleet{Trogdor: driver.NewTrogdor(nil, []string{"agent-1"}, "4.3.1"),
		hosts: map[string]string{"agent-1": "127.0.0.1", "agent-3": "10.0.0.3", "agent-2": "10.0.0.2"}}
	for _, tc := range []struct{ host, want string }{
		{"10.0.0.3", "agent-3"},
		{"10.0.0.2", "agent-2"},
		{"localhost", "agent-1"},
		{"10.0.0.9", ""},
	} {
		if got, ok := f.agentOn(tc.host); got != tc.want || ok != (tc.want != "") {
			t.Errorf("agentOn(%s) = %q, %v; want %q", tc.host, got, ok, tc.want)
		}
	}
	if got, want := agentHosts(f), "agent-1 on 127.0.0.1, agent-2 on 10.0.0.2, agent-3 on 10.0.0.3"; got != want {
		t.Errorf("agentHosts = %q, want %q", got, want)
	}
}

// TestFleetWorkers: a client other than Java runs on the agents as its
// fleet worker (clients.Kind.FleetWorker) found in each agent's worker
// directory; a scenario whose agent lacks it, or whose agent jar reports no
// worker directory, is refused naming the agent and the client, and the
// Java client needs none.
func TestFleetWorkers(t *testing.T) {
	both := trogdor.AgentInfo{WorkerDir: "/opt/prodlab", Executables: []string{"prodlab", "prodlab-librdkafka"}}
	onlyProdlab := trogdor.AgentInfo{WorkerDir: "/srv/w", Executables: []string{"prodlab"}}
	old := trogdor.AgentInfo{}
	f := &Fleet{Trogdor: driver.NewTrogdor(nil, []string{"agent-1", "agent-2"}, "4.3.1"),
		agents: map[string]trogdor.AgentInfo{"agent-1": both, "agent-2": onlyProdlab}}
	for _, tc := range []struct {
		client string
		f      *Fleet
		want   string // a substring of the refusal; "" when accepted
	}{
		{"java", f, ""},
		{"franz-go", f, ""},
		{"librdkafka", f, "client librdkafka: agent agent-2 has no librdkafka worker: no executable prodlab-librdkafka in its worker directory /srv/w"},
		{"franz-go", &Fleet{Trogdor: f.Trogdor, agents: map[string]trogdor.AgentInfo{"agent-1": both, "agent-2": old}},
			"client franz-go: agent agent-2 has no franz-go worker: its agent jar reports no worker directory"},
	} {
		t.Run(tc.client+" "+tc.want, func(t *testing.T) {
			var p problems
			checkFleetWorkers(expfile.Scenario{ID: "s", Exp: expfile.Experiment{Client: tc.client}}, tc.f, &p)
			err := p.err(1)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
		})
	}
	d := f.DriverOf("franz-go")
	if d.Client() != "franz-go" || d != f.DriverOf("franz-go") {
		t.Errorf("DriverOf(franz-go) = %s, want franz-go's driver, made once", d.Client())
	}
	if f.DriverOf("java") != f.Trogdor || f.DriverOf("java@4.3.1") != f.Trogdor {
		t.Error("the Java client's driver is not the fleet's own")
	}
	if cmd, ok := fleetCommand(both, mustKind(t, "librdkafka")); !ok || strings.Join(cmd, " ") != "/opt/prodlab/prodlab-librdkafka trogdor" {
		t.Errorf("librdkafka's command %q, %v", cmd, ok)
	}
}

// mustKind is the client kind of name.
func mustKind(t *testing.T, name string) clients.Kind {
	t.Helper()
	c, err := clients.Parse(name)
	if err != nil {
		t.Fatal(err)
	}
	return c.Kind
}
