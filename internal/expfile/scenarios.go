package expfile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// Scenarios expands the matrix into its cross product, in file order with
// the last axis varying fastest, and checks each scenario for contradictory
// settings. An experiment without a matrix has one scenario, BaseScenarioID.
func (e *Experiment) Scenarios() ([]Scenario, error) {
	c := &collector{}
	out := e.expand(c)
	if err := c.err(); err != nil {
		return nil, err
	}
	return out, nil
}

// expand builds the scenarios, reporting problems into c.
func (e *Experiment) expand(c *collector) []Scenario {
	total, ok := e.countScenarios(c)
	if !ok {
		return nil
	}
	keys := make([]string, len(e.Matrix))
	for i, a := range e.Matrix {
		keys[i] = a.Key
	}
	checkClientTwice(e, c)
	out := make([]Scenario, 0, total)
	idx := make([]int, len(e.Matrix)) // odometer over the axes' values
	for n := 0; n < total; n++ {
		s := Scenario{Index: n, Keys: slices.Clone(keys), Values: map[string]string{}, Exp: e.clone()}
		s.Exp.Matrix = nil
		fromMatrix := map[string]bool{}
		var id []string
		for i, a := range e.Matrix {
			v := a.Values[idx[i]]
			for k, val := range v.Set {
				assign(&s.Exp, k, val)
				s.Exp.pos[k] = v.keyPosOf(k)
				fromMatrix[k] = true
			}
			if v.HasFaults {
				s.Exp.Faults = slices.Clone(v.Faults)
				fromMatrix["faults"] = true
			}
			s.Values[a.Key] = v.Label
			id = append(id, a.Key+"="+v.Label)
		}
		s.ID = strings.Join(id, ",")
		if len(e.Matrix) == 0 {
			s.ID = BaseScenarioID
		}
		if s.Exp.Workload.DurationS > 0 {
			if _, set := s.Exp.pos["workload.records"]; !set {
				s.Exp.Workload.Records = MaxRecords // the duration ends the trial
			}
		}
		checkScenario(&s.Exp, s.ID, fromMatrix, c)
		out = append(out, s)
		for i := len(idx) - 1; i >= 0; i-- {
			if idx[i]++; idx[i] < len(e.Matrix[i].Values) {
				break
			}
			idx[i] = 0
		}
	}
	return out
}

// countScenarios is the size of the matrix's cross product. It reports an
// empty axis, or a product above MaxScenarios (at the axis that crosses it,
// with the whole product, counted up to a bound so that it cannot overflow).
func (e *Experiment) countScenarios(c *collector) (int, bool) {
	total, crossed := 1, -1
	for i, a := range e.Matrix {
		if len(a.Values) == 0 {
			c.add(a.pos.errorf("matrix axis %q has no values", a.Key))
			return 0, false
		}
		total = min(total*len(a.Values), MaxScenarios*MaxScenarios)
		if total > MaxScenarios && crossed < 0 {
			crossed = i
		}
	}
	if crossed >= 0 {
		c.add(e.Matrix[crossed].pos.errorf("matrix expands to %s scenarios, more than the limit of %d; drop values or split the experiment",
			countText(total, MaxScenarios*MaxScenarios), MaxScenarios))
		return 0, false
	}
	return total, true
}

// countText writes n, or "over <bound>" when n reached the bound it was
// counted to.
func countText(n, bound int) string {
	if n >= bound {
		return fmt.Sprintf("over %d", bound)
	}
	return fmt.Sprint(n)
}

// checkScenario reports settings of one scenario that contradict each
// other. A contradiction that involves a matrix value names the scenario;
// one made of base settings only is reported once.
func checkScenario(e *Experiment, id string, fromMatrix map[string]bool, c *collector) {
	report := func(keys []string, format string, args ...any) {
		at := pos{File: e.File}
		found := false
		for _, k := range keys { // prefer a key the scenario varies
			if p, ok := e.pos[k]; ok && fromMatrix[k] {
				at, found = p, true
				break
			}
		}
		for _, k := range keys {
			if p, ok := e.pos[k]; ok && !found {
				at, found = p, true
			}
		}
		msg := fmt.Sprintf(format, args...)
		for _, k := range keys {
			if fromMatrix[k] {
				msg = fmt.Sprintf("scenario %q: %s", id, msg)
				break
			}
		}
		c.add(&Error{File: at.File, Line: at.Line, Col: at.Col, Msg: msg})
	}

	e.parseConf(c)
	checkIdempotence(e, report)
	checkSpelledTwice(e, report)
	checkTransactionTimeout(e, report)
	checkTransactionRecords(e, report)
	checkLabOwned(e, report)
	checkWorkloadTime(e, report)
	checkKeys(e, report)
	checkProducers(e, report)
	checkLimits(e, report)
	checkSecurityScenario(e, report)
	checkKIP1269(e, report)
	checkTrogdor(e, report)
	checkZones(e, report)
	if e.Network.Zones != (ZoneLink{}) && !e.Cluster.HasZones() && !fromMatrix["cluster.zones"] {
		report([]string{"network.zones.rtt.ms", "network.zones.jitter.ms", "network.zones.bandwidth", "cluster.zones"},
			"network.zones needs a cluster in zones (cluster.zones 2 or 3): with one zone no path crosses zones and the setting would do nothing")
	}
	if e.ClientZone != "" && !e.Cluster.HasZones() && !fromMatrix["cluster.zones"] {
		report([]string{"client.zone", "cluster.zones"},
			"client.zone needs a cluster in zones (cluster.zones 2 or 3): with one zone the client is in it, and the setting would do nothing")
	}
	if set := e.expectSet(); len(set) > 0 && !e.Audited() && !fromMatrix["audit"] {
		verb := map[bool]string{true: "applies", false: "apply"}[len(set) == 1]
		report(set, "%s %s to the audit's findings, but nothing is audited (audit is false and no fault is injected), and it would be ignored (set audit: true, or drop expect)", strings.Join(set, " and "), verb)
	}
	if e.Expect.AbortedVisible && e.Settings().TransactionalID == "" && !fromMatrix["producer.transactional.id"] {
		report([]string{"expect.aborted.visible", "producer.transactional.id"},
			"expect.aborted.visible applies to a transactional producer's audit, and without producer.transactional.id it would be ignored (set one, or drop it)")
	}
	checkCutEvery(e, report)
	if e.Topic.ReplicationFactor > e.Cluster.Brokers {
		report([]string{"topic.replication.factor", "cluster.brokers"},
			"replication.factor %d exceeds brokers %d (must be in 1..brokers)", e.Topic.ReplicationFactor, e.Cluster.Brokers)
	}
	if mir, ok := e.Topic.Configs["min.insync.replicas"]; ok {
		if n, err := parseInt(mir); err == nil && n > int64(e.Topic.ReplicationFactor) {
			report([]string{"topic.configs.min.insync.replicas", "topic.replication.factor"},
				"min.insync.replicas %d exceeds replication.factor %d", n, e.Topic.ReplicationFactor)
		}
	}
	if msg := transactionVersionError(e); msg != "" {
		report([]string{"cluster.transaction.version", "cluster.kafka"}, "%s", msg)
	}
	checkScenarioFaults(e, id, fromMatrix, c)
}

// checkScenarioFaults reports each fault that cannot run in the scenario,
// at the fault's own position; one that depends on a matrix value names
// the scenario.
func checkScenarioFaults(e *Experiment, id string, fromMatrix map[string]bool, c *collector) {
	for i, f := range e.Faults {
		msg := zoneFaultError(e, f)
		if f.Broker > e.Cluster.Brokers {
			msg = fmt.Sprintf("fault broker %d does not exist (broker ids are 1..%d)", f.Broker, e.Cluster.Brokers)
		}
		if msg == "" {
			msg = fenceFaultError(e, f)
		}
		if msg == "" {
			msg = afterFenceError(e, i)
		}
		if msg == "" {
			msg = faultNeverError(e, f)
		}
		if msg == "" {
			continue
		}
		if fromMatrix["cluster.brokers"] || fromMatrix["cluster.zones"] || fromMatrix["faults"] ||
			fromMatrix["workload.duration.s"] || fromMatrix["workload.warmup.s"] || fromMatrix["workload.timeout.s"] {
			msg = fmt.Sprintf("scenario %q: %s", id, msg)
		}
		c.add(&Error{File: f.pos.File, Line: f.pos.Line, Col: f.pos.Col, Msg: msg})
	}
}

// checkIdempotence refuses producer settings that contradict idempotence
// (acks, requests in flight, transactional.id) for clients that do not
// judge them themselves.
func checkIdempotence(e *Experiment, report reportFunc) {
	prod := e.Settings()
	idem := prod.EnableIdempotence
	// A client with its own rules (the Java client, by the rules of its
	// version) judges these itself, and a rejection becomes a failed
	// scenario with the client's own words. For other clients prodlab
	// rejects them before anything starts.
	cl, cerr := clients.Parse(e.Client)
	if cerr == nil && cl.Kind.OwnRules {
		idem = kafkaconf.Opt[bool]{}
	}
	maxInFlight := kafkaconf.IdempotentMaxInFlight // for an unknown client
	if cerr == nil {
		maxInFlight = cl.Kind.IdempotentMaxInFlight
	}
	idemOn := idem.Set && idem.V
	if prod.Acks.Set && idemOn && !prod.AcksAll() {
		report([]string{"producer.acks", "producer.enable.idempotence"},
			"enable.idempotence=true requires acks=all (or -1), got acks=%s", prod.Acks.V)
	}
	if n := prod.MaxInFlight; n.Set && idemOn && n.V > maxInFlight {
		report([]string{"producer.max.in.flight.requests.per.connection", "producer.enable.idempotence"},
			"enable.idempotence=true requires max.in.flight.requests.per.connection ≤ %d, got %d", maxInFlight, n.V)
	}
	if err := prod.TransactionConflict(); err != nil { // every client release refuses it
		keys := []string{"producer.transactional.id", "producer.enable.idempotence", "producer.acks"}
		if prod.TransactionalID == "" { // a transaction setting without an id: point at it
			keys = keys[:0]
			for _, name := range kafkaconf.TransactionSettings {
				keys = append(keys, "producer."+name)
			}
		}
		report(keys, "%v", err)
	}
	if cerr == nil && !cl.Kind.OwnRules {
		checkDefaultIdempotence(prod, cl.Kind, report)
	}
}

// checkDefaultIdempotence reports in-flight limits that the default
// idempotence (on, unless enable.idempotence is written) of a client
// without its own rules would resolve silently: more than its idempotent
// maximum turns idempotence off, and another limit its driver cannot keep
// (franz-go fixes 5) fails every trial.
func checkDefaultIdempotence(prod kafkaconf.Producer, k clients.Kind, report reportFunc) {
	n := prod.MaxInFlight
	if !k.IdempotentByDefault || !n.Set || prod.EnableIdempotence.Set || (prod.Acks.Set && !prod.AcksAll()) {
		return
	}
	keys := []string{"producer.max.in.flight.requests.per.connection"}
	if n.V > k.IdempotentMaxInFlight {
		report(keys, "max.in.flight.requests.per.connection=%d is above %d, the most client %s's idempotent producer allows, and idempotence is on by default: "+
			"write enable.idempotence=false to run %d in flight without it, or use at most %d", n.V, k.IdempotentMaxInFlight, k.Name, n.V, k.IdempotentMaxInFlight)
		return
	}
	if n.V != k.IdempotentMaxInFlight && !k.LiftableCap && k.CapWhy != "" {
		report(keys, "max.in.flight.requests.per.connection=%d with idempotence (on by default) is not supported by client %s: %s; write enable.idempotence=false to choose another limit",
			n.V, k.Name, k.CapWhy)
	}
}

// faultNeverError is why fault f would never happen in e's trials ("" when
// it may): its at.ms is past the end of every trial — a steady-state
// trial's warm-up and window (and the window's catch-up under an SLO), or
// workload.timeout.s, which ends any trial (the lab cancels a fault not
// fired when the trial ends) — or it cuts after more produce requests
// than a burst makes.
func faultNeverError(e *Experiment, f Fault) string {
	w := e.Workload
	if most := burstRequests(w); f.Every > 0 && most > 0 && int64(f.Every) > most {
		return fmt.Sprintf("fault %s every %d is more produce requests than a burst of %d records makes (a request carries at least one): it would never cut; use at most %d",
			f.Type, f.Every, most, most)
	}
	if f.AtMs <= 0 {
		return ""
	}
	if w.DurationS > 0 {
		end, what := w.WarmupS+w.DurationS, fmt.Sprintf("workload.warmup.s %g + workload.duration.s %g", w.WarmupS, w.DurationS)
		if e.WarmupCatchesUp() {
			end, what = end+w.DurationS, what+" + a window's catch-up under the SLO"
		}
		if f.AtMs >= end*1000 {
			return fmt.Sprintf("fault %s at.ms %g comes after the trial ends (%s = %s): it would never happen; set at.ms below %.0f", f.Type, f.AtMs, what, longDuration(end), end*1000)
		}
		return ""
	}
	if f.AtMs >= w.TimeoutS*1000 {
		return fmt.Sprintf("fault %s at.ms %g comes after workload.timeout.s (%g) ends every trial: it would never happen; set at.ms below %.0f", f.Type, f.AtMs, w.TimeoutS, w.TimeoutS*1000)
	}
	return ""
}

// burstRequests is the most produce requests a burst of w can make, one
// record each; 0 for steady-state trials, whose count is not known.
func burstRequests(w Workload) int64 {
	if w.DurationS > 0 {
		return 0
	}
	return w.Records + w.WarmupRecords
}

// checkCutEvery refuses network.cut.every past the produce requests a
// burst makes: the proxies would never cut.
func checkCutEvery(e *Experiment, report reportFunc) {
	every := int64(e.Network.CutEvery)
	if most := burstRequests(e.Workload); every > 0 && most > 0 && every > most {
		report([]string{"network.cut.every", "workload.records"},
			"network.cut.every %d is more produce requests than a burst of %d records makes (a request carries at least one): it would never cut; use at most %d",
			every, most, most)
	}
}

// InjectsFaults reports whether the experiment injects any fault (faults:
// or network.cut.every), which turns the delivery audit on.
func (e *Experiment) InjectsFaults() bool { return len(e.Faults) > 0 || e.Network.CutEvery > 0 }

// Audited reports whether each trial's topic is audited: audit: true, or
// any fault injected.
func (e *Experiment) Audited() bool { return e.Audit || e.InjectsFaults() }

// expectSet lists the expect.* keys set to true.
func (e *Experiment) expectSet() []string {
	var out []string
	for _, x := range []struct {
		key string
		on  bool
	}{{"expect.lost", e.Expect.Lost}, {"expect.duplicates", e.Expect.Duplicates}, {"expect.reordered", e.Expect.Reordered}, {"expect.phantom", e.Expect.Phantom}, {"expect.aborted.visible", e.Expect.AbortedVisible}} {
		if x.on {
			out = append(out, x.key)
		}
	}
	return out
}
