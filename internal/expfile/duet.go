package expfile

import (
	"fmt"
	"strings"

	"github.com/prodlab/prodlab/internal/clients"
)

// How a run's rounds put its scenarios on the machine (schedule).
const (
	// ScheduleSequential runs a round's trials one after another on the
	// scenarios' clusters: the default.
	ScheduleSequential = "sequential"
	// ScheduleDuet runs the two scenarios of a comparison at the same
	// time, each on its own cluster and its own half of the CPUs, swapping
	// the halves every round (duet benchmarking, Bulej et al., ICPE 2020):
	// whatever else the machine does in a round, both arms live through it.
	ScheduleDuet = "duet"
)

// checkSchedule accepts the schedule values.
var checkSchedule = oneOf("schedule", []string{ScheduleSequential, ScheduleDuet})

// Duet reports whether the run's rounds run their two arms side by side.
func (e *Experiment) Duet() bool { return e.Schedule == ScheduleDuet }

// duetDefaults puts a duet's brokers' data in memory unless the file says
// where: on a disk, both arms would write through one page cache to one
// device, which the CPU sets do not separate (checkDuet refuses that).
func (e *Experiment) duetDefaults() {
	if e.Duet() && e.Cluster.Storage == "" {
		e.Cluster.Storage = StorageMemory
	}
}

// DuetWouldRun reports whether e, run in sequential rounds, could run its
// comparisons as schedule: duet instead, where that helps most: every
// scenario's windows are steady-state ones without a rate (as fast as
// possible, where the machine itself is the bottleneck and sequential
// rounds decide slowest: an A/A pair reached ±4.6 % in 5 minutes, a duet
// ±2 % in 99 s, bench/RESULTS.md §20 and §22), and the same experiment
// with schedule: duet passes every check (the one owner of the duet's
// rules). The report suggests it beside an undecided finding; the lab
// leaves out a run on an existing cluster, which a duet cannot use.
func (e *Experiment) DuetWouldRun() bool {
	if e.Duet() {
		return false
	}
	scs, err := e.Scenarios()
	if err != nil {
		return false
	}
	for _, sc := range scs {
		if sc.Exp.Workload.Rate > 0 {
			return false
		}
	}
	y, err := e.YAML()
	if err != nil {
		return false
	}
	_, err = Parse(e.File, y, []string{"schedule=" + ScheduleDuet})
	return err == nil
}

// checkDuet refuses what schedule: duet cannot run fairly, once per
// experiment: arms side by side share whatever their CPU sets do not
// separate, so each runs on an embedded cluster of its own with data in
// memory, and no schedule of its own (checkDuetPairs pairs them).
func (e *Experiment) checkDuet(scs []Scenario, c *collector) {
	if !e.Duet() {
		return
	}
	at := e.posOr("schedule", pos{File: e.File})
	switch {
	case e.Advise.On:
		c.add(at.errorf("schedule: duet pairs fixed trials round by round; advise races its candidates on one cluster (drop schedule)"))
	case e.Capacity.On:
		c.add(at.errorf("schedule: duet pairs fixed trials round by round; a capacity search chooses each scenario's probes apart (drop schedule, or drop capacity)"))
	}
	seen := map[string]bool{}
	for _, sc := range scs {
		for _, r := range duetRefusals(sc.Exp) {
			if !seen[r.key] {
				seen[r.key] = true
				c.add(e.posOr(r.key, at).errorf("schedule: duet cannot run with %s", r.why))
			}
		}
	}
}

// duetRefusal is a scenario setting a duet cannot run with, and why.
type duetRefusal struct{ key, why string }

// duetRefusals lists x's settings that arms side by side would share.
func duetRefusals(x Experiment) []duetRefusal {
	var out []duetRefusal
	if x.Cluster.CPUs == CPUsSplit {
		out = append(out, duetRefusal{"cluster.cpus", "cluster.cpus: split (a duet gives each arm its own half of the CPUs itself: drop cluster.cpus)"})
	}
	if x.Cluster.Storage == StorageDisk {
		out = append(out, duetRefusal{"cluster.storage", "cluster.storage: disk (both arms would write through one page cache to one disk, which CPU sets do not separate: use cluster.storage: memory, the duet default)"})
	}
	for _, f := range x.Faults {
		if t, ok := faultType(f.Type); ok && t.Restarts {
			out = append(out, duetRefusal{"faults", fmt.Sprintf("a %s fault (the broker it brings back is a new process, started on every CPU, in the middle of the other arm's window; the other fault types keep their processes)", f.Type)})
			break
		}
	}
	if x.Trogdor.Coordinator != "" {
		out = append(out, duetRefusal{"trogdor.coordinator", "a Trogdor fleet (its agents run on their own hosts, not on the arm's CPUs)"})
	}
	return out
}

// checkDuetPairs refuses a duet whose scenarios do not fall into pairs of
// planned comparisons: each round runs every scenario beside the one it is
// compared with, so each must have exactly one partner.
func (e *Experiment) checkDuetPairs(scs []Scenario, cmps []Comparison, c *collector) {
	if !e.Duet() {
		return
	}
	at := e.posOr("schedule", pos{File: e.File})
	pairs, alone := DuetPairs(scs, cmps)
	byID := map[string]Scenario{}
	for _, sc := range scs {
		byID[sc.ID] = sc
	}
	for _, p := range pairs {
		a, b := byID[p[0]].Exp, byID[p[1]].Exp
		for _, why := range []string{unconfined(a, b), unequalWindows(a, b)} {
			if why != "" {
				c.add(at.errorf("schedule: duet cannot pair %s with %s: %s", p[0], p[1], why))
			}
		}
	}
	switch {
	case len(scs) < 2:
		c.add(at.errorf("schedule: duet runs the two arms of a comparison side by side, but this experiment has 1 scenario (give it a matrix axis and a compare: entry, or use schedule: sequential)"))
	case len(alone) > 0:
		var made []string
		for _, p := range pairs {
			made = append(made, p[0]+" | "+p[1])
		}
		c.add(at.errorf("schedule: duet runs each scenario beside the one it is compared with, but no planned comparison is left to pair %s (pairs made, in compare: order: %s; add compare: entries, narrow the matrix, or use schedule: sequential)",
			strings.Join(alone, ", "), orNone(made)))
	}
}

// inProcess reports whether a client runs in prodlab's own process
// (clients.Kind.InProcess: franz-go), where CPU halves cannot confine it.
func inProcess(client string) bool {
	c, err := clients.Parse(client)
	return err == nil && c.Kind.InProcess
}

// unconfined says why a pair's arms would compete for what the CPU halves
// do not confine, or "": an in-process client (franz-go) runs in prodlab's
// own process, both arms' together on every CPU, so such arms must not
// differ in the client's own work — another client, or another
// compression.type (zstd against none measured 76.3 % slower side by side
// and 74.0 % in sequential rounds, intervals apart; the Java worker, which
// each arm confines, agreed: 57.2 % and 60.1 %; bench/RESULTS.md §20).
// Clients in worker processes (java, librdkafka) are confined by arm.
func unconfined(a, b Experiment) string {
	ia, ib := inProcess(a.Client), inProcess(b.Client)
	if !ia && !ib {
		return ""
	}
	if a.Client != b.Client {
		in, other := a.Client, b.Client
		if !ia {
			in, other = b.Client, a.Client
		}
		return fmt.Sprintf("a %s client runs in prodlab's own process on every CPU, so the halves cannot confine it beside a %s one (use schedule: sequential)", in, other)
	}
	ca, cb := a.Settings().CompressionType.Or("none"), b.Settings().CompressionType.Or("none")
	if ca != cb {
		return fmt.Sprintf("%s runs both arms' clients in prodlab's own process on every CPU, so compression.type %s against %s would take client CPU from both arms (use a client in a worker process, java or librdkafka, whose worker each arm confines, or schedule: sequential)", a.Client, ca, cb)
	}
	return ""
}

// unequalWindows says why a pair's windows would not overlap, or "": both
// arms must be steady-state trials of the same warm-up and window, else
// one runs its end alone.
func unequalWindows(a, b Experiment) string {
	wa, wb := a.Workload, b.Workload
	switch {
	case wa.DurationS <= 0 || wb.DurationS <= 0:
		return "a duet runs steady-state windows side by side, and a burst of workload.records ends when its records are acknowledged, with the other arm still running (set workload.duration.s and workload.warmup.s)"
	case wa.DurationS != wb.DurationS || wa.WarmupS != wb.WarmupS:
		return fmt.Sprintf("their windows differ (workload.warmup.s %g + duration.s %g against %g + %g), so one would run its end alone", wa.WarmupS, wa.DurationS, wb.WarmupS, wb.DurationS)
	}
	return ""
}

// DuetPairs splits scs into the pairs a duet runs side by side: planned
// comparisons, taken in order, whose two scenarios are both still
// unpaired. alone lists the scenarios (IDs) left without a partner.
func DuetPairs(scs []Scenario, cmps []Comparison) (pairs [][2]string, alone []string) {
	paired := map[string]bool{}
	for _, c := range cmps {
		if c.Baseline != c.Candidate && !paired[c.Baseline] && !paired[c.Candidate] {
			paired[c.Baseline], paired[c.Candidate] = true, true
			pairs = append(pairs, [2]string{c.Baseline, c.Candidate})
		}
	}
	for _, sc := range scs {
		if !paired[sc.ID] {
			alone = append(alone, sc.ID)
		}
	}
	return pairs, alone
}

func orNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, "; ")
}

// DuetExternalError is why a duet cannot run on an existing cluster.
var DuetExternalError = fmt.Sprintf("schedule: %s starts a cluster for each arm; an existing cluster is one, shared by both (drop --bootstrap, or use schedule: %s)", ScheduleDuet, ScheduleSequential)

// duetMode runs each round's comparisons with their two arms side by
// side, on clusters and CPU halves of their own (schedule: duet).
type duetMode struct{}

func (duetMode) Name() string     { return "duet" }
func (duetMode) Searches() bool   { return false }
func (duetMode) Advises() bool    { return false }
func (duetMode) SideBySide() bool { return true }

func (duetMode) roundsText(e *Experiment, warm string) string {
	return e.roundsWords(warm, ", each comparison's two arms side by side (schedule: duet)")
}

func (duetMode) measuredSeconds(e *Experiment, round float64) float64 {
	return e.roundsSeconds(round)
}

func (duetMode) livesRefusal(lives string) string {
	return fmt.Sprintf("lives: %s cannot run with schedule: duet: a duet's two clusters run side by side for the whole run (drop lives, or schedule)", lives)
}

func (duetMode) UpperBound() string { return "" }
