package lab

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
)

// schedule: duet runs a comparison's two arms at the same time, each on a
// cluster of its own, its brokers (and its client, where the client runs
// in a process of its own: the Java worker) confined to one half of the
// CPUs, the arms trading halves (and, for one cluster shape, clusters)
// round by round (duetPair.place); each round's two figures are a pair
// (duet benchmarking, Bulej et al., ICPE 2020). A noisy neighbour,
// writeback or a frequency change then falls on both arms of a round
// alike instead of on one arm's turn. The scheduler is whichever the run
// has (fixed rounds, rounds until precise, warm-up): the duet only runs
// each of its rounds' pairs side by side, one pair after another.

// duetArm is one arm's place in a duet round: the CPUs it runs on and the
// rendezvous that start and end both arms' windows together.
type duetArm struct {
	set  unix.CPUSet
	cpus string // the set's CPU list, "0" or "2-3"
	// cluster numbers the duet's cluster the arm runs on (1 or 2).
	cluster int
	// i is the arm's place at the rendezvous.
	i int
	// meet starts both arms' windows together; done holds the arm that
	// ends first until the other has too, so that neither audits, reads
	// its disk or deletes its topic beside the other's window.
	meet, done *rendezvous
	// inProcess: the client runs in prodlab's own process (franz-go),
	// shared with the other arm's, and is left on every CPU.
	inProcess bool
}

// pin confines the arm's brokers, and its client when it runs in its own
// process, to the arm's CPUs; it returns what ran where, for the record.
func (a *duetArm) pin(d any, brokers map[int]int) (string, error) {
	var errs []error
	for _, pid := range brokers {
		errs = append(errs, pinProcess(pid, &a.set))
	}
	text := fmt.Sprintf("duet: cluster %d; brokers and client on CPU %s", a.cluster, a.cpus)
	a.inProcess = true
	if p, ok := d.(pider); ok && p.PID() > 0 {
		a.inProcess = false
		errs = append(errs, pinProcess(p.PID(), &a.set))
	} else {
		text = fmt.Sprintf("duet: cluster %d; brokers on CPU %s; client in prodlab's process, on every CPU", a.cluster, a.cpus)
	}
	if err := errors.Join(errs...); err != nil {
		return "", fmt.Errorf("schedule: duet: %w", err)
	}
	return text, nil
}

// ready waits, before the arm's window, until the other arm is ready too
// (or gone, or ctx ends).
func (a *duetArm) ready(ctx context.Context) { a.meet.wait(ctx, a.i) }

// finished waits, after the arm's window, until the other arm's has
// ended too (or it is gone, or ctx ends).
func (a *duetArm) finished(ctx context.Context) { a.done.wait(ctx, a.i) }

// unshareClientCPU drops the client's CPU from c when both arms' clients
// ran in prodlab's one process: its CPU time is theirs together, not this
// arm's. Nil-safe: outside a duet it does nothing.
func (a *duetArm) unshareClientCPU(c *results.CPU) {
	if a == nil || !a.inProcess {
		return
	}
	c.ClientS, c.ClientMsPerMB = 0, 0
}

// rendezvous lets n arms start their windows together: each arrives once
// (when ready, or when it ends early, so that the other never waits for
// an arm that failed).
type rendezvous struct {
	mu      sync.Mutex
	arrived []bool
	left    int
	all     chan struct{}
}

func newRendezvous(n int) *rendezvous {
	return &rendezvous{arrived: make([]bool, n), left: n, all: make(chan struct{})}
}

// arrive counts arm i once.
func (r *rendezvous) arrive(i int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.arrived[i] {
		return
	}
	r.arrived[i] = true
	r.left--
	if r.left == 0 {
		close(r.all)
	}
}

// wait counts arm i and waits for the others or for ctx.
func (r *rendezvous) wait(ctx context.Context, i int) {
	r.arrive(i)
	select {
	case <-r.all:
	case <-ctx.Done():
	}
}

// duet runs rounds side by side: each pair of scenarios (expfile.DuetPairs)
// on two sessions at once, one pair after another.
type duet struct {
	r *runner
	// clusters are the sessions; pairs the pairs of scenarios, each with
	// the clusters its arms run on.
	clusters []*session
	pairs    []duetPair
	// halves are the two CPU sets and their lists; rounds counts the
	// rounds run, warm-up included, to swap the halves.
	halves [2]unix.CPUSet
	lists  [2]string
	rounds int
	// mu orders the events of the arms' goroutines (publish).
	mu sync.Mutex
}

// duetPair is two scenarios compared, run side by side.
type duetPair struct {
	ids [2]string
	// clusters index duet.clusters: the arms' own clusters, or, when the
	// arms share a cluster shape (swap), the shape's two clusters, which
	// they trade every round so that a difference between the two
	// clusters' JVMs (JIT outcomes, heap layout) falls on both arms alike
	// instead of being taken for the arms' own.
	clusters [2]int
	swap     bool
}

// place is where arm a of p runs in round n: which cluster (an index of
// duet.clusters) and which half of the CPUs. Arms that trade clusters go
// through every pairing of cluster and half once in 4 rounds; arms on
// their own clusters swap halves every round.
func (p *duetPair) place(a, n int) (cluster, half int) {
	if p.swap {
		return p.clusters[(a+n)%2], (a + n/2) % 2
	}
	return p.clusters[a], (a + n) % 2
}

// arm is the scenario's arm in p: 0, 1, or -1 when it is not p's.
func (p *duetPair) arm(id string) int {
	for i, x := range p.ids {
		if x == id {
			return i
		}
	}
	return -1
}

// duetClusters plans the clusters of pairs: a pair of one shape gets that
// shape's two clusters (slots 0 and 1), a pair of two shapes one cluster
// of each (slot 0). Each cluster's group lists the scenarios that may run
// on it.
func duetClusters(scs []expfile.Scenario, pairs [][2]string) ([]*clusterGroup, []duetPair) {
	byID := map[string]expfile.Scenario{}
	for _, sc := range scs {
		byID[sc.ID] = sc
	}
	type slot struct {
		key string
		n   int
	}
	var gs []*clusterGroup
	idx := map[slot]int{}
	need := func(sc expfile.Scenario, n int, run ...expfile.Scenario) int {
		k := slot{sc.Exp.Cluster.Key(), n}
		i, ok := idx[k]
		if !ok {
			i = len(gs)
			idx[k] = i
			gs = append(gs, &clusterGroup{brokers: sc.Exp.Cluster.Brokers, kafka: sc.Exp.Cluster.Kafka, cluster: sc.Exp.Cluster,
				n: i + 1, prefix: fmt.Sprintf("duet cluster %d: ", i+1), ownDrivers: true})
		}
		for _, x := range run {
			if !slices.ContainsFunc(gs[i].scs, func(y expfile.Scenario) bool { return y.ID == x.ID }) {
				gs[i].scs = append(gs[i].scs, x)
			}
		}
		return i
	}
	out := make([]duetPair, len(pairs))
	for i, p := range pairs {
		a, b := byID[p[0]], byID[p[1]]
		out[i].ids = p
		if a.Exp.Cluster.Key() == b.Exp.Cluster.Key() {
			out[i].swap = true
			out[i].clusters = [2]int{need(a, 0, a, b), need(a, 1, a, b)}
		} else {
			out[i].clusters = [2]int{need(a, 0, a), need(b, 0, b)}
		}
	}
	return gs, out
}

// A duet: each round's pairs side by side on clusters and CPU halves of
// their own (runDuet), the rounds steady ones. It needs two CPU halves
// and room for both clusters, and its own clusters.
func init() {
	registerMode("duet", labMode{run: (*runner).runDuet, measured: (*runner).steadyRounds,
		external: func(expfile.Scenario) string { return expfile.DuetExternalError },
		preflight: func(scs []expfile.Scenario) []error {
			var errs []error
			if _, _, err := duetHalves(); err != nil {
				errs = append(errs, err)
			}
			if err := duetFits(scs); err != nil {
				errs = append(errs, err)
			}
			return errs
		}})
}

// runDuet starts the clusters the pairs need, warms them side by side and
// runs the measured schedule's rounds side by side.
func (r *runner) runDuet(ctx context.Context, scs []expfile.Scenario) {
	all := &clusterGroup{brokers: scs[0].Exp.Cluster.Brokers, kafka: scs[0].Exp.Cluster.Kafka, cluster: scs[0].Exp.Cluster, n: 1, scs: scs}
	pairs, _ := expfile.DuetPairs(scs, r.cmps) // Parse refused a scenario left alone
	r.partners(pairs)
	all.measured = r.newMeasured(all)
	if all.measured.finished() {
		r.logf("resume: every measured trial of the duet was run before")
		return
	}
	halves, lists, err := duetHalves()
	if err != nil {
		r.failAll(scs, err)
		return
	}
	gs, dps := duetClusters(scs, pairs)
	d := &duet{r: r, halves: halves, lists: lists, pairs: dps}
	defer func() {
		for _, s := range d.clusters {
			r.endSession(s)
		}
	}()
	for i, g := range gs {
		g.measured = all.measured
		g.logf = d.logf // both arms' targets log while their trials run
		s, ok := r.startSession(ctx, g, 0)
		if !ok {
			if ctx.Err() == nil { // an interrupt records nothing: --resume runs it all
				r.failAll(othersThan(scs, g.scs), fmt.Errorf("not run: duet cluster %d did not start", i+1))
			}
			return
		}
		d.clusters = append(d.clusters, s)
	}
	r.logf("duet: %d clusters up for %d pairs; the arms of a pair run side by side on CPUs %s and %s, trading them (and, for one cluster shape, their clusters) round by round", len(gs), len(dps), lists[0], lists[1])
	warmed := r.warm(scs, d.runSchedule)
	for _, s := range d.clusters {
		s.warmed = warmed
	}
	d.rounds = 0 // the measured rounds go through the 4 places from the first
	d.runSchedule(all.measured)
	d.noteLost(ctx, scs)
}

// partners makes each scenario of a resumed duet skip a round its partner
// finished before (alreadyRun): a round that ended with one arm done would
// otherwise run the other alone and pair it with a trial of another
// process and another moment.
func (r *runner) partners(pairs [][2]string) {
	r.partner = map[string]string{}
	for _, p := range pairs {
		r.partner[p[0]], r.partner[p[1]] = p[1], p[0]
	}
}

// noteLost records, when a cluster was lost (which stops every pair), each
// scenario of scs not run, but for those of the last pair, whose trials
// recorded the loss.
func (d *duet) noteLost(ctx context.Context, scs []expfile.Scenario) {
	var lost error
	for _, s := range d.clusters {
		if lost = s.tgt.Lost(); lost != nil {
			break
		}
	}
	if lost == nil || ctx.Err() != nil {
		return
	}
	recs := d.r.sum.Records
	last := map[string]bool{}
	for i := max(len(recs)-2, 0); i < len(recs); i++ {
		last[recs[i].ScenarioID] = true
	}
	for _, sc := range scs {
		if last[sc.ID] {
			continue
		}
		rec := d.r.x.failedRecord(sc, 0, d.clusters[0].tgt.Version(), fmt.Errorf("not run: %w", lost))
		d.r.publishUnrun(sc, rec, "NOT RUN: cluster lost")
	}
}

// othersThan is scs without those in but.
func othersThan(scs, but []expfile.Scenario) []expfile.Scenario {
	var out []expfile.Scenario
	for _, sc := range scs {
		if !slices.ContainsFunc(but, func(x expfile.Scenario) bool { return x.ID == sc.ID }) {
			out = append(out, sc)
		}
	}
	return out
}

// failAll records every scenario of scs failed with err, unrun.
func (r *runner) failAll(scs []expfile.Scenario, err error) {
	r.logf("%v", err)
	for _, sc := range scs {
		rec := r.x.failedRecord(sc, 0, "", err)
		r.publishUnrun(sc, rec, "FAILED: "+firstLine(err.Error()))
	}
}

// alive reports whether every cluster can still run trials.
func (d *duet) alive() bool {
	for _, s := range d.clusters {
		if s.ctx.Err() != nil {
			return false
		}
	}
	return true
}

// runSchedule runs sch's rounds side by side until it is done or a
// cluster's session ends.
func (d *duet) runSchedule(sch scheduler) {
	for d.alive() && d.runRound(sch) {
	}
}

// runRound runs sch's next round one pair at a time, in the round's
// order, the pair's two trials side by side.
func (d *duet) runRound(sch scheduler) bool {
	round, ok := sch.next()
	if !ok {
		return false
	}
	defer func() {
		if d.alive() {
			sch.endRound()
		}
	}()
	n := d.rounds
	d.rounds++
	for _, side := range d.sides(round) {
		if !d.alive() {
			return true
		}
		d.runSide(sch, side, n)
	}
	return true
}

// side is the trials of one pair in a round (one, when a resumed run
// finished the other), with the pair.
type side struct {
	p      *duetPair
	trials []trialSpec
}

// sides groups a round's trials by pair, in the order of each pair's
// first trial in the round (the scheduler alternates it).
func (d *duet) sides(round []trialSpec) []side {
	var out []side
	at := map[*duetPair]int{}
	for _, t := range round {
		for i := range d.pairs {
			p := &d.pairs[i]
			if p.arm(t.sc.ID) < 0 {
				continue
			}
			j, ok := at[p]
			if !ok {
				j = len(out)
				at[p] = j
				out = append(out, side{p: p})
			}
			out[j].trials = append(out[j].trials, t)
		}
	}
	return out
}

// runSide runs one pair's trials of round n side by side, each arm on its
// place (cluster and half of the CPUs), and publishes the records in the
// round's order once both have ended.
func (d *duet) runSide(sch scheduler, sd side, n int) {
	meet, done := newRendezvous(len(sd.trials)), newRendezvous(len(sd.trials))
	recs := make([]results.Record, len(sd.trials))
	status := make([]string, len(sd.trials))
	var wg sync.WaitGroup
	for i, t := range sd.trials {
		c, h := sd.p.place(sd.p.arm(t.sc.ID), n)
		s := d.clusters[c]
		x := *d.r.x
		x.ev = d.events(i == 0)
		x.arm = &duetArm{set: d.halves[h], cpus: d.lists[h], cluster: c + 1, i: i, meet: meet, done: done}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer done.arrive(i)
			defer meet.arrive(i)
			recs[i], status[i] = x.trial(s.ctx, s, t)
		}()
	}
	wg.Wait()
	for i, t := range sd.trials {
		if !t.warm {
			recs[i].Warmed = d.clusters[0].warmed
		}
		sch.observe(&recs[i])
		if i > 0 {
			d.publish(Event{Kind: TrialStarted, Scenario: label(t.sc), Trial: t.n, Warmup: t.warm})
			d.publish(Event{Kind: TrialProgress, Sent: recs[i].Records.Sent, Acked: recs[i].Records.Acked, Rate: recs[i].Throughput.RecordsPerS})
		}
		d.publish(Event{Kind: TrialFinished, Scenario: label(t.sc), Trial: t.n, Warmup: t.warm, Record: &recs[i], Status: status[i]})
	}
}

// events is what an arm's executor publishes: log lines from both, and
// the progress of the side's first trial only, since one progress line
// shows one trial; runSide publishes how both ended.
func (d *duet) events(first bool) events {
	return events{func(ev Event) {
		if ev.Kind != Log && !first {
			return
		}
		d.publish(ev)
	}}
}

// publish publishes ev to the run's subscribers one event at a time: the
// arms' goroutines and their targets publish at once. No subscriber
// publishes through d (the results writer logs through the runner), so
// the lock is never taken twice.
func (d *duet) publish(ev Event) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.r.ev.publish(ev)
}

// logf is the runner's log for the duet's targets, one line at a time.
func (d *duet) logf(format string, args ...any) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.r.logf(format, args...)
}

// duetHalves are the two CPU halves a duet's arms run on: equal in size,
// or the arms would not be alike.
func duetHalves() ([2]unix.CPUSet, [2]string, error) {
	_, halves, lists, err := splitCPUs("schedule: duet", "the two arms of a pair")
	if err == nil && halves[0].Count() != halves[1].Count() {
		err = fmt.Errorf("schedule: duet needs the CPUs prodlab may use to split by core into two equal halves, got %s and %s (set prodlab's affinity to an even number of cores, e.g. with taskset, or use schedule: sequential)", lists[0], lists[1])
	}
	return halves, lists, err
}

// duetFits reports, before anything starts, whether the clusters a duet
// may keep up together fit in memory: at most two of each cluster shape.
func duetFits(scs []expfile.Scenario) error {
	nodes, seen := 0, map[string]bool{}
	for _, sc := range scs {
		if k := sc.Exp.Cluster.Key(); !seen[k] {
			seen[k] = true
			nodes += 2 * (sc.Exp.Cluster.Brokers + sc.Exp.Cluster.Controllers)
		}
	}
	if !cluster.FitTogether(nodes) {
		return fmt.Errorf("schedule: duet keeps two clusters of each shape up together, but their %d Kafka nodes do not fit in this machine's memory (use schedule: sequential, or fewer brokers)", nodes)
	}
	return nil
}
