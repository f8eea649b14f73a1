package lab

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
	"github.com/prodlab/prodlab/internal/testtier"
)

// raceWorlds are simulated candidates: the current settings and the
// defaults at 5,000 msg/s, a leader at 20,000, one within 2 % of it and
// two clear losers.
func raceWorlds() ([]expfile.Scenario, map[string]probeWorld) {
	ids := []string{"candidate=current", "candidate=defaults", "candidate=best", "candidate=close", "candidate=slow", "candidate=slower"}
	bounds := []float64{5000, 5000, 20000, 19600, 2000, 1000}
	var scs []expfile.Scenario
	worlds := map[string]probeWorld{}
	for i, id := range ids {
		scs = append(scs, expfile.Scenario{ID: id})
		worlds[id] = probeWorld{bounds[i], 0.03, rand.New(rand.NewPCG(uint64(i), 7))}
	}
	return scs, worlds
}

// runRace runs the advisor against worlds until it stops, calling
// between after each round, and returns every record.
func runRace(t *testing.T, a *advisor, worlds map[string]probeWorld, between func(round int)) []results.Record {
	t.Helper()
	var recs []results.Record
	for rounds := 0; ; rounds++ {
		if rounds > 300 {
			t.Fatal("the race did not stop in 300 rounds")
		}
		round, ok := a.next()
		if !ok {
			return recs
		}
		for _, tr := range round {
			if a.race.out[tr.sc.ID] != "" {
				t.Fatalf("round %d probes %s, which is out of the race", rounds, tr.sc.ID)
			}
			rec := worlds[tr.sc.ID].record(tr)
			a.observe(&rec)
			recs = append(recs, rec)
		}
		if between != nil {
			between(rounds)
		}
		a.endRound()
	}
}

// probesPer counts each candidate's trials in recs.
func probesPer(recs []results.Record) map[string]int {
	n := map[string]int{}
	for _, r := range recs {
		n[r.ScenarioID]++
	}
	return n
}

// racePlan is the advice plan of a simulated race among scs.
func racePlan(scs []expfile.Scenario) results.Plan {
	plan := results.Plan{Level: 0.95, Margin: 0.05, Advise: &results.AdvicePlan{Objective: expfile.ObjectiveSustainable,
		Current: "candidate=current", Defaults: "candidate=defaults"}}
	for _, sc := range scs {
		plan.Advise.Candidates = append(plan.Advise.Candidates, results.AdviceCandidate{ScenarioID: sc.ID, Settings: map[string]string{"id": sc.ID}})
	}
	return plan
}

// TestAdvisorRace: the clear losers leave the race once decided slower
// than the leader (by more than the margin, at the race's level, once the
// leader is known within twice the precision), the current settings and the defaults never leave, and
// the answer picks the leader (or the candidate within 2 % of it, which
// the verdicts cannot tell apart) and recommends it over the current
// settings by a verdict.
func TestAdvisorRace(t *testing.T) {
	scs, worlds := raceWorlds()
	e := &expfile.Experiment{Equivalence: 0.05, Capacity: expfile.Capacity{On: true, KeepUp: 0.99, Precision: 0.05, BudgetS: 1e9}}
	var logs []string
	s := newCapacitySearch(e, &clusterGroup{scs: scs}, len(scs), nil)
	s.logf = func(f string, args ...any) { logs = append(logs, f) }
	a := newAdvisor(e, s)
	recs := runRace(t, a, worlds, nil)
	for _, id := range []string{"candidate=slow", "candidate=slower"} {
		if !strings.Contains(a.race.out[id], "slower by") {
			t.Errorf("%s: out = %q, want decided slower than the leader", id, a.race.out[id])
		}
	}
	for _, id := range []string{"candidate=current", "candidate=defaults", "candidate=best"} {
		if a.race.out[id] != "" {
			t.Errorf("%s left the race: %s", id, a.race.out[id])
		}
	}
	// The losers stopped before the end: fewer probes than the leader.
	n := probesPer(recs)
	if n["candidate=slower"] >= n["candidate=best"] || n["candidate=slow"] >= n["candidate=best"] {
		t.Errorf("probes per candidate %v: the losers were not dropped early", n)
	}
	adv := summary.Advice(recs, racePlan(scs))
	if adv.Pick == nil || (adv.Pick.ScenarioID != "candidate=best" && adv.Pick.ScenarioID != "candidate=close") {
		t.Fatalf("pick = %+v, want best or close", adv.Pick)
	}
	if !adv.Recommend || len(adv.Verdicts) != 2 || adv.Verdicts[0].Kind != "faster" {
		t.Errorf("advice %+v: want the pick recommended, faster than current", adv)
	}
}

// TestAdvisorNoPass: a candidate that passes no probe (an SLO it holds at
// no rate: an end-to-end bound under its transaction interval) leaves the
// race once the leader is known, the defaults too, and the pick's verdict
// against the defaults is decided one-sided.
func TestAdvisorNoPass(t *testing.T) {
	ids := []string{"candidate=current", "candidate=defaults", "candidate=best"}
	bounds := []float64{5000, 1e-3, 20000}
	var scs []expfile.Scenario
	worlds := map[string]probeWorld{}
	for i, id := range ids {
		scs = append(scs, expfile.Scenario{ID: id})
		worlds[id] = probeWorld{bounds[i], 0.03, rand.New(rand.NewPCG(uint64(i), 9))}
	}
	e := &expfile.Experiment{Equivalence: 0.05, Capacity: expfile.Capacity{On: true, KeepUp: 0.99, Precision: 0.05, BudgetS: 1e9}}
	a := newAdvisor(e, newCapacitySearch(e, &clusterGroup{scs: scs}, len(scs), nil))
	recs := runRace(t, a, worlds, nil)
	if !strings.HasPrefix(a.race.out["candidate=defaults"], "no probe bounds it from below: slower by more than") || a.race.out["candidate=current"] != "" {
		t.Errorf("out of the race: %v, want the defaults (no probe bounds it from below) and not current", a.race.out)
	}
	n := probesPer(recs)
	if n["candidate=defaults"] >= n["candidate=best"] {
		t.Errorf("probes per candidate %v: the defaults were probed on", n)
	}
	adv := summary.Advice(recs, racePlan(scs))
	if len(adv.Verdicts) != 2 {
		t.Fatalf("verdicts %+v, want against current and defaults", adv.Verdicts)
	}
	if d := adv.Verdicts[1]; d.Against != "defaults" || d.Kind != "faster" || !d.AtLeast || !strings.HasPrefix(d.Text, "faster by more than") {
		t.Errorf("against the defaults: %+v, want faster by more than a least difference", d)
	}
}

// TestAdvisorHalving: when the budget left cannot give every candidate in
// the race the probes a verdict needs, the lower half of the unprotected
// candidates leaves, ranked by what is known of them; current and
// defaults stay.
func TestAdvisorHalving(t *testing.T) {
	scs, worlds := raceWorlds()
	e := &expfile.Experiment{Equivalence: 0.05, Capacity: expfile.Capacity{On: true, KeepUp: 0.99, Precision: 0.05, BudgetS: 1e9}}
	a := newAdvisor(e, newCapacitySearch(e, &clusterGroup{scs: scs}, len(scs), nil))
	runRace(t, a, worlds, func(round int) {
		if round == 1 { // after the ceiling and first probes: the budget is nearly spent
			a.budget = a.spent + a.spent/100
		}
	})
	for _, id := range []string{"candidate=slow", "candidate=slower"} {
		if !strings.Contains(a.race.out[id], "successive halving") {
			t.Errorf("%s: out = %q, want halved", id, a.race.out[id])
		}
	}
	for _, id := range []string{"candidate=current", "candidate=defaults", "candidate=best"} {
		if a.race.out[id] != "" {
			t.Errorf("%s left the race: %s", id, a.race.out[id])
		}
	}
}

// TestAdvisePipe runs the advisor on a real broker behind an emulated
// 20 ms, 48 Mbit/s pipe, with librdkafka and a space in its own words: the
// current settings (one request in flight) lose to five in flight and to
// librdkafka's default (a million), the pick is recommended by a verdict,
// no candidate's capacity lies wholly above what the pipe carries, and the
// run directory gets advice.json and advice.properties with the pick's
// settings and the constraints.
func TestAdvisePipe(t *testing.T) {
	testtier.Quiet(t)
	dir := t.TempDir()
	runTestdata(t, "advise.yaml", dir, 6*time.Minute)
	_, scs := planTestdata(t, "advise.yaml")
	// The link delivers late under load, never early: a loaded machine
	// lowers a rate, and no interval may lie wholly above the pipe
	// model's bound (10 % for the batches' framing). The defaults' once
	// did, at 7,296–14,894 msg/s over a 5,700 msg/s link, when the
	// keep-up resolution counted every request in flight (RESULTS §57).
	caps, ok, err := results.ReadCapacity(dir)
	if err != nil || !ok || len(caps) != len(scs) {
		t.Fatalf("capacity.json: %v, %v, %d of %d candidates", ok, err, len(caps), len(scs))
	}
	for _, c := range caps {
		i := slices.IndexFunc(scs, func(sc expfile.Scenario) bool { return sc.ID == c.ScenarioID })
		if i < 0 {
			t.Fatalf("capacity.json names %s, not a candidate of advise.yaml", c.ScenarioID)
		}
		if bound := pipeBound(scs[i]); !(c.Sustainable.Lo <= 1.1*bound) {
			t.Errorf("%s: sustainable %.0f [%.0f, %.0f] lies wholly above the pipe model's %.0f msg/s",
				c.ScenarioID, c.Sustainable.RecordsPerS, c.Sustainable.Lo, c.Sustainable.Hi, bound)
		}
	}
	adv, ok, err := results.ReadAdvice(dir)
	if err != nil || !ok {
		t.Fatalf("advice.json: %v, %v", ok, err)
	}
	if adv.Pick == nil || adv.Pick.ScenarioID == "candidate=current" || !adv.Recommend {
		t.Fatalf("advice %+v: want a pick other than the current settings, recommended", adv)
	}
	if len(adv.Verdicts) == 0 || adv.Verdicts[0].Against != "current" || adv.Verdicts[0].Kind != stats.KindFaster {
		t.Errorf("verdicts %+v: want faster than current first", adv.Verdicts)
	}
	props, err := os.ReadFile(filepath.Join(dir, results.AdvicePropertiesFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"acks=all\n", "enable.idempotence=false\n", "# prodlab advise: use the pick"} {
		if !strings.Contains(string(props), want) {
			t.Errorf("advice.properties lacks %q:\n%s", want, props)
		}
	}
	if strings.Contains(string(props), "max.in.flight=1\n") {
		t.Errorf("advice.properties keeps the current in-flight 1:\n%s", props)
	}
}

// lapsing is a probeWorld whose outcomes flip with probability lapse: an
// unsteady window failing a probe below the knee, a lucky one passing
// above it.
type lapsing struct {
	probeWorld
	lapse float64
}

func (w lapsing) record(t trialSpec) results.Record {
	rec := w.probeWorld.record(t)
	if rec.Load != nil && w.rng.Float64() < w.lapse {
		if rec.Load.Achieved == 1 {
			rec.Load.Achieved = 0.8
		} else {
			rec.Load.Achieved = 1
		}
	}
	return rec
}

// TestAdvisorAA races candidates that are all the same (sustainable rate
// 10,000 msg/s, a 5 % transition, 2 % of outcomes flipped): a candidate
// that leaves on a verdict is a false claim, and the Bonferroni-corrected
// race's rule (Bonferroni-corrected level, 8 probes a side, slower by more
// than the margin, a leader known within twice the precision) keeps races
// with one at or under the run's 5 %. Each race
// runs until every candidate is known within ±5 %. 12 races here
// (PRODLAB_ADVISE_AA=N runs N and prints the tally, for bench/RESULTS.md).
func TestAdvisorAA(t *testing.T) {
	testtier.Shared(t)
	races := 12
	if n, err := strconv.Atoi(os.Getenv("PRODLAB_ADVISE_AA")); err == nil && n > 0 {
		races = n
	}
	falseRaces, dropped, total := 0, 0, 0
	for r := range races {
		ids := []string{"candidate=current", "candidate=defaults", "candidate=a", "candidate=b", "candidate=c", "candidate=d", "candidate=e", "candidate=f"}
		var scs []expfile.Scenario
		worlds := map[string]lapsing{}
		for i, id := range ids {
			scs = append(scs, expfile.Scenario{ID: id})
			worlds[id] = lapsing{probeWorld{10000, 0.05, rand.New(rand.NewPCG(uint64(r), uint64(i)))}, 0.02}
		}
		e := &expfile.Experiment{Equivalence: 0.05, Capacity: expfile.Capacity{On: true, KeepUp: 0.99, Precision: 0.05, BudgetS: 1e9}}
		a := newAdvisor(e, newCapacitySearch(e, &clusterGroup{scs: scs}, len(scs), nil))
		for rounds := 0; rounds < 300; rounds++ {
			round, ok := a.next()
			if !ok {
				break
			}
			for _, tr := range round {
				rec := worlds[tr.sc.ID].record(tr)
				a.observe(&rec)
			}
			a.endRound()
		}
		n := 0
		for _, why := range a.race.out {
			if strings.Contains(why, "slower by") || strings.Contains(why, "no probe passed") {
				n++
				if os.Getenv("PRODLAB_ADVISE_AA_WHY") != "" {
					t.Log(why)
				}
			}
		}
		total += 6
		dropped += n
		if n > 0 {
			falseRaces++
		}
	}
	t.Logf("A/A races: %d of %d took a candidate out on a verdict (%d of %d candidates)", falseRaces, races, dropped, total)
	if float64(falseRaces) > 0.05*float64(races)+1 {
		t.Errorf("%d of %d A/A races took an equal candidate out: the race level does not hold", falseRaces, races)
	}
}

// TestAdviseRate runs a rate objective on a real broker behind a 20 ms
// pipe (testdata/advise-rate.yaml): the lowest p99 from the intended send
// time at 200 records/s, current settings lingering 100 ms. linger.ms 0
// (or the defaults, which linger 10 ms, within its noise) must be picked,
// held the load, be decided lower than the current settings on the
// objective, and come with a CPU verdict beside it.
func TestAdviseRate(t *testing.T) {
	// Shared: the objective's gap (about 80 ms of lingering at p99) and a
	// 200 records/s load do not need the machine to themselves.
	testtier.Shared(t)
	dir := t.TempDir()
	runTestdata(t, "advise-rate.yaml", dir, 6*time.Minute)
	adv, ok, err := results.ReadAdvice(dir)
	if err != nil || !ok {
		t.Fatalf("advice.json: %v, %v", ok, err)
	}
	// franz-go's defaults linger 10 ms: at 200 records/s behind a 20 ms
	// round trip their p99 lies within the noise of linger 0's (a loaded
	// CI run picked the defaults, linger 0 a runner-up not told apart,
	// [-24.9 %, +24.5 %]). The two can tie, so the test asserts what the
	// advisor promises of a tie, not which of the two it picks: the pick
	// is one of them, and the other is named beside it as a runner-up
	// (not told apart) unless a verdict decided it worse. linger 0 cannot
	// be decided worse than the defaults (it lingers less), so it is
	// always a runner-up when it is not the pick.
	tied := []string{"candidate=linger.ms=0", "candidate=defaults"}
	if adv.Pick == nil || !adv.Recommend || adv.Pick.Score == nil || !slices.Contains(tied, adv.Pick.ScenarioID) {
		t.Fatalf("advice %+v: want linger.ms=0 or the defaults (tied within noise) picked with a score, recommended", adv)
	}
	for _, r := range adv.RunnersUp {
		if r.Kind != stats.KindEquivalent && r.Kind != stats.KindInconclusive {
			t.Errorf("runner-up %s is %q against the pick: a runner-up is one not told apart", r.ScenarioID, r.Kind)
		}
	}
	runnerUp := func(id string) bool {
		return slices.ContainsFunc(adv.RunnersUp, func(r results.AdviceRunnerUp) bool { return r.ScenarioID == id })
	}
	switch adv.Pick.ScenarioID {
	case "candidate=defaults":
		if !runnerUp("candidate=linger.ms=0") {
			t.Errorf("the defaults picked and linger.ms=0 not named as a runner-up: %+v", adv.RunnersUp)
		}
	case "candidate=linger.ms=0":
		decided := slices.ContainsFunc(adv.Verdicts, func(v results.AdviceVerdict) bool {
			return v.Against == "defaults" && v.Metric == "p99.intended" && v.Kind == stats.KindLower
		})
		if !decided && !runnerUp("candidate=defaults") {
			t.Errorf("linger.ms=0 picked, the defaults neither decided worse nor named as a runner-up: verdicts %+v, runners-up %+v", adv.Verdicts, adv.RunnersUp)
		}
	}
	var onObjective, onCPU bool
	for _, v := range adv.Verdicts {
		if v.Against != "current" {
			continue
		}
		onObjective = onObjective || (v.Metric == "p99.intended" && v.Kind == stats.KindLower)
		onCPU = onCPU || v.Metric == "cpu.total"
	}
	if !onObjective || !onCPU {
		t.Errorf("verdicts %+v: want p99.intended lower than current, and a cpu.total verdict", adv.Verdicts)
	}
	if !strings.Contains(adv.Pick.Held, " of ") {
		t.Errorf("pick held %q: want how many trials held the load", adv.Pick.Held)
	}
}

// TestAdvisorPipeBound: behind an emulated 50 ms round trip, a candidate
// with one 16 KiB request in flight cannot pass about 328 records/s of
// 1 KB (the pipe model); once the leader is known it leaves on that
// bound, before the 8 probes a verdict needs, while a candidate whose
// bound lies above the leader's interval stays until judged.
func TestAdvisorPipeBound(t *testing.T) {
	scs, worlds := raceWorlds()
	piped := func(inFlight string) expfile.Experiment {
		return expfile.Experiment{Client: "java", Network: expfile.Network{RTTMs: 50}, Workload: expfile.Workload{RecordSize: 1000},
			Topic: expfile.Topic{Partitions: 1}, Cluster: expfile.Cluster{Brokers: 1},
			Producer: map[string]string{"compression.type": "none", "batch.size": "16384", "max.in.flight.requests.per.connection": inFlight}}
	}
	scs = append(scs, expfile.Scenario{ID: "candidate=piped", Exp: piped("1")})
	worlds["candidate=piped"] = probeWorld{300, 0.03, rand.New(rand.NewPCG(11, 7))}
	if b := pipeBound(scs[len(scs)-1]); b < 327 || b > 328 {
		t.Fatalf("pipe bound %g, want 1 × 16384 B ÷ 50 ms ÷ 1000 B ≈ 327.7 records/s", b)
	}
	if b := pipeBound(expfile.Scenario{Exp: piped("5")}); b < 1638 || b > 1639 {
		t.Fatalf("pipe bound at 5 in flight %g, want ≈ 1,638 records/s", b)
	}
	e := &expfile.Experiment{Equivalence: 0.05, Capacity: expfile.Capacity{On: true, KeepUp: 0.99, Precision: 0.05, BudgetS: 1e9}}
	a := newAdvisor(e, newCapacitySearch(e, &clusterGroup{scs: scs}, len(scs), nil))
	recs := runRace(t, a, worlds, nil)
	if !strings.Contains(a.race.out["candidate=piped"], "the pipe model bounds it at 328 msg/s") {
		t.Errorf("piped: out = %q, want taken out on its pipe bound", a.race.out["candidate=piped"])
	}
	n := 0
	for _, r := range recs {
		if r.ScenarioID == "candidate=piped" && r.Load != nil {
			n++
		}
	}
	if n >= raceMinProbes {
		t.Errorf("piped got %d probes at a rate: the bound did not save any", n)
	}
	four := expfile.Scenario{Exp: piped("5")}
	four.Exp.Workload.Producers = 4
	if b := pipeBound(four); b < 4*1638 || b > 4*1639 {
		t.Errorf("pipe bound of 4 producers %g, want 4 × 1,638: each has its own connections", b)
	}
	noAck := expfile.Scenario{Exp: piped("5")}
	noAck.Exp.Producer["acks"] = "0"
	if b := pipeBound(noAck); b == b {
		t.Errorf("acks=0 has a pipe bound %g: nothing waits for a response", b)
	}
	if pipeBound(scs[0]) == pipeBound(scs[0]) { // no Exp: NaN, no bound
		t.Errorf("a candidate without an emulated round trip has a pipe bound")
	}
}

// TestRaceDropsViolated: with audit on, a candidate with a trial whose
// audit was not clean leaves the race at once; the current settings and
// the defaults never leave.
func TestRaceDropsViolated(t *testing.T) {
	scs, _ := raceWorlds()
	r := newRace(&clusterGroup{scs: scs}, map[string]string{}, func(string, ...any) {})
	recs := map[string][]results.Record{}
	for _, sc := range scs {
		for i := range 3 {
			rec := results.Record{ScenarioID: sc.ID, Trial: i, Status: results.StatusOK, Audit: &results.Audit{Acked: 100}}
			if i == 1 && (sc.ID == "candidate=best" || sc.ID == "candidate=current") {
				rec.Status = results.StatusViolated
				rec.Audit.Duplicates = 2
			}
			recs[sc.ID] = append(recs[sc.ID], rec)
		}
	}
	r.dropViolated(recs)
	if !strings.Contains(r.out["candidate=best"], "audit was not clean in 1 of 3 trials (first: trial 1)") {
		t.Errorf("best: out = %q, want taken out on its audit", r.out["candidate=best"])
	}
	for id, why := range r.out {
		if id != "candidate=best" {
			t.Errorf("%s left the race: %s", id, why)
		}
	}
}
