package expfile

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/figures"
	"github.com/prodlab/prodlab/internal/javaprops"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/stats"
)

// The advise: section (issue 24) asks which producer settings to use: each
// point of a search space of producer settings becomes a candidate
// scenario, beside the user's current settings and the client's defaults,
// and the advisor (lab/advise.go) searches the candidates' sustainable
// rates under the SLO, racing them so that candidates decided worse stop
// early. The producer: section holds the constraints the search never
// changes (acks, idempotence, …).
const (
	// ObjectiveSustainable is the highest sustainable rate under the SLO
	// (figures owns the name: summary answers by it).
	ObjectiveSustainable = figures.ObjectiveSustainable
	// DefaultAdviseBudgetS is advise.budget (20 min).
	DefaultAdviseBudgetS = 1200
	// CandidateAxis names the axis of the generated candidate scenarios
	// ("candidate=current", "candidate=batch.size=65536,linger.ms=5").
	CandidateAxis = "candidate"
	// CurrentLabel and DefaultsLabel label the scenarios of the user's
	// current settings and of the client's defaults.
	CurrentLabel  = "current"
	DefaultsLabel = "defaults"
)

// RateObjectives are the objectives judged at a fixed workload.rate: the
// lowest of a metric of the registry (figures.Metrics), each lower-is-better
// and measured on every trial at a rate. Every candidate must hold the
// rate (keep up, a steady window, the SLO) to count.
var RateObjectives = []string{"cpu.total", "cpu.client", "cpu.brokers", "p50.intended", "p95.intended", "p99.intended", "p999.intended"}

// objectives is every advise.objective, the sustainable rate first.
func objectives() []string { return append([]string{ObjectiveSustainable}, RateObjectives...) }

// isRateObjective reports whether objective is a metric at a fixed rate
// rather than the sustainable rate.
func isRateObjective(objective string) bool { return slices.Contains(RateObjectives, objective) }

// DefaultAdviseSpace is the search space when advise.space is not given:
// the settings that decide how a producer batches and pipelines. 36
// candidates.
var DefaultAdviseSpace = []SpaceAxis{
	{Key: "batch.size", Values: []string{"16384", "262144"}},
	{Key: "linger.ms", Values: []string{"0", "5", "50"}},
	{Key: "compression.type", Values: []string{"none", "lz4", "zstd"}},
	{Key: "max.in.flight.requests.per.connection", Values: []string{"1", "5"}},
}

// Advise is the advise: section; On when the file has one.
type Advise struct {
	On bool
	// Objective is ObjectiveSustainable.
	Objective string
	// Space are the searched producer settings, in file order.
	Space []SpaceAxis
	// Current are the user's current producer settings beyond the
	// constraints (advise.current: a .properties file or a mapping); nil
	// when not given, and the client's defaults stand for them.
	Current map[string]string
	// CurrentFile is the absolute path Current was read from ("" when
	// written inline or not given).
	CurrentFile string
	// Constraints are the producer: settings every candidate keeps, set
	// once the candidates are generated.
	Constraints map[string]string

	spacePos   pos
	currentPos map[string]pos
}

// SpaceAxis is one searched producer setting and its values.
type SpaceAxis struct {
	Key    string
	Values []string

	pos      pos
	valuePos []pos
}

// adviseFields are the settings of the advise section that --set reaches.
var adviseFields = []field{
	{key: "advise.objective", normalize: checkObjective,
		assign: func(e *Experiment, v string) { e.Advise.Objective = v; e.Advise.On = true },
		typed:  func(v string) any { return v }},
	{key: "advise.current", normalize: func(raw, dir string) (string, error) {
		if strings.TrimSpace(raw) == "" {
			return "", fmt.Errorf("advise.current must name a producer .properties file")
		}
		return resolvePath(raw, dir), nil
	},
		assign: func(e *Experiment, v string) { e.Advise.CurrentFile = v; e.Advise.On = true },
		typed:  func(v string) any { return v }},
}

// checkObjective accepts ObjectiveSustainable and RateObjectives.
func checkObjective(raw, _ string) (string, error) {
	if slices.Contains(objectives(), raw) {
		return raw, nil
	}
	return "", fmt.Errorf("advise.objective must be %s (the highest sustainable rate) or, at a fixed workload.rate, the lowest of %s; got %q%s",
		ObjectiveSustainable, strings.Join(RateObjectives, ", "), raw, didYouMean(raw, objectives()))
}

// adviseAlias resolves a key of the advise section written in --set
// (advise.precision, advise.slo.p99.ms) to the capacity key it sets: the
// advisor is a capacity search, and its section only renames the
// search's keep.up, precision, budget and SLO, as the file's parser does.
func adviseAlias(key string) (string, bool) {
	rest, ok := strings.CutPrefix(key, "advise.")
	searchKey := rest == "keep.up" || rest == "precision" || rest == "budget" || strings.HasPrefix(rest, "slo.")
	if !ok || !searchKey {
		return "", false
	}
	c := "capacity." + rest
	_, known := fieldByKey[c]
	return c, known
}

// adviseKeys are the keys of the advise section.
var adviseKeys = []string{"objective", "slo", "keep.up", "precision", "budget", "space", "current"}

// advise reads the advise section. Its SLO, keep.up, precision and budget
// are the capacity search's (the advisor is one): they set capacity.*.
func (p *fileParser) advise(e *Experiment, n ast.Node) {
	e.Advise.On, e.Capacity.On = true, true
	entries, ok := p.mapping(n)
	if !ok {
		if v := p.unwrap(n); v != nil {
			if _, null := v.(*ast.NullNode); !null {
				p.c.add(p.at(n).errorf("advise must be a mapping"))
			}
		}
		return
	}
	for _, mv := range entries {
		key, kpos := p.key(mv)
		switch key {
		case "objective":
			p.setScalar(e, "advise.objective", kpos, mv.Value)
		case "keep.up", "precision", "budget":
			p.setScalarAs(e, "capacity."+key, "advise."+key, kpos, mv.Value)
		case "slo":
			p.adviseSLO(e, mv.Value)
		case "space":
			p.adviseSpace(e, kpos, mv.Value)
		case "current":
			if _, isMap := p.mapping(mv.Value); isMap {
				p.adviseCurrentInline(e, mv.Value)
			} else {
				p.setScalar(e, "advise.current", kpos, mv.Value)
			}
		default:
			p.c.add(kpos.errorf("unknown key %q in advise%s", key, keyHint(key, adviseKeys, adviseKeys)))
		}
	}
}

// adviseSLO reads advise.slo: the capacity SLO's percentiles.
func (p *fileParser) adviseSLO(e *Experiment, n ast.Node) {
	entries, ok := p.mapping(n)
	if !ok {
		p.c.add(p.at(n).errorf("advise.slo must be a mapping such as {p99.ms: 50}"))
		return
	}
	var valid []string
	for _, q := range figures.SLOPercentiles {
		valid = append(valid, q.Name+".ms")
	}
	for _, mv := range entries {
		key, kpos := p.key(mv)
		if !slices.Contains(valid, key) {
			p.c.add(kpos.errorf("unknown SLO %q in advise.slo: the SLO bounds percentiles of the latency from the intended send time or, with e2e., end to end: one of %s%s",
				key, strings.Join(valid, ", "), didYouMean(key, valid)))
			continue
		}
		p.setScalarAs(e, "capacity.slo."+key, "advise.slo."+key, kpos, mv.Value)
	}
}

// adviseSpace reads advise.space: producer settings, each with a list of
// values, checked as producer: checks them.
func (p *fileParser) adviseSpace(e *Experiment, kpos pos, n ast.Node) {
	e.Advise.spacePos = kpos
	entries, ok := p.mapping(n)
	if !ok {
		p.c.add(p.at(n).errorf("advise.space must be a mapping of producer settings to lists of values"))
		return
	}
	for _, mv := range entries {
		key, at := p.key(mv)
		if _, known := producerType(key); !known {
			p.c.add(at.errorf("unknown producer setting %q in advise.space%s", key, didYouMean(key, producerNames())))
			continue
		}
		items, ok := p.sequence(mv.Value)
		if !ok || len(items) == 0 {
			p.c.add(p.at(mv.Value).errorf("advise.space %s must be a non-empty list of values", key))
			continue
		}
		ax := SpaceAxis{Key: key, pos: at}
		seen := map[string]string{} // producerValue → the value as first written
		for _, it := range items {
			raw, ok := p.value(it, isList(producerPrefix+key), "a value of advise.space "+key)
			if !ok {
				continue
			}
			v, err := normalize(producerPrefix+key, raw, e.dir)
			if err != nil {
				p.c.add(p.at(it).errorf("%v", err))
				continue
			}
			if first, dup := seen[producerValue(key, v)]; dup {
				if first == v {
					p.c.add(p.at(it).errorf("advise.space %s lists %s twice", key, v))
				} else {
					p.c.add(p.at(it).errorf("advise.space %s lists one value twice: %s and %s are the same setting (drop one)", key, first, v))
				}
				continue
			}
			seen[producerValue(key, v)] = v
			ax.Values = append(ax.Values, v)
			ax.valuePos = append(ax.valuePos, p.at(it))
		}
		if len(ax.Values) > 0 {
			e.Advise.Space = append(e.Advise.Space, ax)
		}
	}
}

// adviseCurrentInline reads advise.current written as a mapping of
// producer settings.
func (p *fileParser) adviseCurrentInline(e *Experiment, n ast.Node) {
	entries, _ := p.mapping(n)
	e.Advise.Current = map[string]string{}
	e.Advise.currentPos = map[string]pos{}
	for _, mv := range entries {
		key, at := p.key(mv)
		if msg := currentKeyError(key); msg != "" {
			p.c.add(at.errorf("%s", msg))
			continue
		}
		raw, ok := p.value(mv.Value, isList(producerPrefix+key), "advise.current "+key)
		if !ok {
			continue
		}
		v, err := normalize(producerPrefix+key, raw, e.dir)
		if err != nil {
			p.c.add(p.at(mv.Value).errorf("%v", err))
			continue
		}
		e.Advise.Current[key], e.Advise.currentPos[key] = v, at
	}
}

// currentKeyError says why a property cannot be one of the current
// settings, written inline or in a file: an unknown producer setting (with
// the closest name), or a secret; "" when it can.
func currentKeyError(key string) string {
	if _, known := producerType(key); !known {
		return fmt.Sprintf("unknown producer setting %q in the current settings%s", key, didYouMean(key, producerNames()))
	}
	if isSecret(producerPrefix + key) {
		return fmt.Sprintf("the current settings hold a secret (%s): the search compares producer tuning, and prodlab takes security from cluster.security; drop it", key)
	}
	return ""
}

// readCurrent reads advise.current's .properties file: every property
// must be a producer setting the experiment allows, pointed at by its
// line when not.
func (e *Experiment) readCurrent(c *collector) {
	a := &e.Advise
	if a.CurrentFile == "" {
		return
	}
	at := e.posOr("advise.current", pos{File: e.File})
	f, err := javaprops.Read(a.CurrentFile)
	if err != nil {
		c.add(at.errorf("advise.current: %v", err))
		return
	}
	a.Current, a.currentPos = map[string]string{}, map[string]pos{}
	for _, key := range slices.Sorted(maps.Keys(f.Props)) {
		kp := pos{File: a.CurrentFile, Line: f.Lines[key], Col: 1}
		if msg := currentKeyError(key); msg != "" {
			c.add(kp.errorf("%s", msg))
			continue
		}
		v, err := normalize(producerPrefix+key, f.Props[key], e.dir)
		if err != nil {
			c.add(kp.errorf("%v", err))
			continue
		}
		a.Current[key], a.currentPos[key] = v, kp
	}
}

// adviseCandidates checks the advise section against the rest of the
// experiment and adds the generated candidate axis to the matrix: the
// current settings (when given), the client's defaults and every point of
// the space. It runs after --set, before the matrix expands.
func (e *Experiment) adviseCandidates(c *collector) {
	a := &e.Advise
	if !a.On {
		return
	}
	at := e.firstPos("advise")
	if cp := e.Capacity.sectionPos; cp.Line > 0 {
		c.add(cp.errorf("capacity: and advise: cannot share a file: advise runs its own capacity search of each candidate, and capacity: would be ignored (move its slo, keep.up, precision and budget into advise:, and drop capacity:)"))
		return
	}
	if a.Objective == "" {
		a.Objective = ObjectiveSustainable
	}
	if _, set := e.pos["capacity.budget"]; !set {
		e.Capacity.BudgetS = DefaultAdviseBudgetS
	}
	if isRateObjective(a.Objective) {
		e.atRate(c, at)
	}
	if len(e.Matrix) > 0 {
		c.add(e.Matrix[0].pos.errorf("advise searches its own space of producer settings: a matrix beside it has no place (put the settings to search in advise.space, the fixed ones in producer:)"))
		return
	}
	if len(e.Compare) > 0 {
		c.add(e.Compare[0].pos.errorf("advise plans its own comparisons (the pick against your current settings and the defaults): drop compare"))
	}
	if len(a.Space) == 0 {
		if a.spacePos.Line > 0 {
			return // every axis was refused; its errors say why
		}
		a.Space = e.defaultSpace()
	}
	if !e.checkCandidateCount(c) {
		return
	}
	e.readCurrent(c)
	for _, ax := range a.Space {
		if p, fixed := e.pos[producerPrefix+ax.Key]; fixed {
			where := p.File
			if p.File == e.File && p.Line > 0 {
				where = fmt.Sprintf("line %d", p.Line)
			}
			c.add(ax.pos.errorf("%s is a constraint (%s=%s, %s) and the search never changes a constraint: drop it from producer: or from advise.space",
				ax.Key, ax.Key, e.Producer[ax.Key], where))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(a.Current)) {
		if want, fixed := e.Producer[k]; fixed && want != a.Current[k] {
			c.add(a.currentPos[k].errorf("the current settings set %s=%s, but producer: fixes %s=%s (a constraint the search keeps): make them agree",
				k, a.Current[k], k, want))
		}
	}
	e.checkSpaceIdempotence(c)
	e.checkSpaceAcks(c)
	if len(c.errs) > 0 {
		return
	}
	a.Constraints = maps.Clone(e.Producer)
	e.Matrix = []Axis{e.candidateAxis(at)}
}

// atRate turns an advise section with a rate objective into rounds at
// the fixed workload.rate: trials: auto with advise's precision and
// budget; the SLO and keep.up stay in Capacity, where the advisor reads
// them, but no capacity search runs. It refuses what has no place there: no
// workload.rate, a burst, and run-level trials, precision or budget.
func (e *Experiment) atRate(c *collector, at pos) {
	obj := e.posOr("advise.objective", at)
	if e.Workload.Rate <= 0 {
		c.add(obj.errorf("advise.objective %s is judged at a fixed offered rate: set workload.rate (records/s), e.g. 20000, or use objective %s to find the highest rate",
			e.Advise.Objective, ObjectiveSustainable))
	}
	if e.Workload.DurationS <= 0 {
		c.add(obj.errorf("advise.objective %s compares steady-state windows at workload.rate: set workload.duration.s (e.g. 3) and workload.warmup.s (e.g. 1); a burst of workload.records cannot be one",
			e.Advise.Objective))
	}
	for _, k := range []string{"trials", "precision", "budget"} {
		if p, set := e.pos[k]; set {
			c.add(p.errorf("%s does not apply beside advise, which decides its own rounds: drop %s (set advise.precision or advise.budget)", k, k))
		}
	}
	e.Capacity.On = false
	e.TrialsAuto, e.Trials = true, 0
	e.Precision, e.BudgetS = e.Capacity.Precision, e.Capacity.BudgetS
}

// defaultSpace is DefaultAdviseSpace without the in-flight setting when
// the client cannot choose it: a client whose idempotent producer fixes
// its requests in flight (franz-go) while the constraints keep
// idempotence on.
func (e *Experiment) defaultSpace() []SpaceAxis {
	cl, err := clients.Parse(e.Client)
	idemOn := err == nil && e.Settings().Idempotent(cl.Kind.IdempotentByDefault)
	fixed := err == nil && !cl.Kind.LiftableCap && cl.Kind.CapWhy != "" && idemOn
	var out []SpaceAxis
	for _, ax := range DefaultAdviseSpace {
		if fixed && ax.Key == kafkaconf.MaxInFlight {
			continue
		}
		out = append(out, ax)
	}
	return out
}

// checkSpaceIdempotence refuses in-flight values of the space above what
// the client's idempotent producer allows while the constraints leave
// idempotence on (written, or by default under acks=all): the client
// would refuse the candidate, or turn idempotence off without a word and
// trade away a durability setting the search must keep.
func (e *Experiment) checkSpaceIdempotence(c *collector) {
	prod := e.Settings()
	if (prod.EnableIdempotence.Set && !prod.EnableIdempotence.V) || !prod.AcksAll() {
		return
	}
	most := kafkaconf.IdempotentMaxInFlight
	if cl, err := clients.Parse(e.Client); err == nil {
		most = cl.Kind.IdempotentMaxInFlight
	}
	for _, ax := range e.Advise.Space {
		if ax.Key != kafkaconf.MaxInFlight {
			continue
		}
		for i, v := range ax.Values {
			if n, err := strconv.Atoi(v); err == nil && n > most {
				c.add(ax.valuePos[i].errorf("max.in.flight.requests.per.connection %d is above %d, the most an idempotent producer allows, and the constraints keep idempotence on: the client would refuse it or turn idempotence off; drop %d, or write enable.idempotence: false in producer:",
					n, most, n))
			}
		}
	}
}

// checkCandidateCount refuses a space whose candidates (every combination
// of its values, with the defaults and the current settings) pass
// MaxScenarios, at advise.space, before they are built: ten settings of
// ten values are ten billion candidates, which would fill the memory.
func (e *Experiment) checkCandidateCount(c *collector) bool {
	a := &e.Advise
	n := 1
	for _, ax := range a.Space {
		n = min(n*len(ax.Values), MaxScenarios*MaxScenarios)
	}
	n++ // the defaults
	if a.Current != nil || a.CurrentFile != "" {
		n++
	}
	if n <= MaxScenarios {
		return true
	}
	c.add(a.spacePos.errorf("advise.space makes %s candidates (every combination of its values, and the defaults and current settings), more than the limit of %d; drop values or settings from advise.space",
		countText(n, MaxScenarios*MaxScenarios), MaxScenarios))
	return false
}

// checkSpaceAcks refuses space values that contradict idempotence where
// the constraints or the space fix it on: acks 0 or 1 in the space under
// enable.idempotence: true in producer:, enable.idempotence true in the
// space under acks 0 or 1 in producer:, or both in the space, crossed.
// Every client refuses such a candidate (the Java client when it starts):
// it would fail in the middle of the race.
func (e *Experiment) checkSpaceAcks(c *collector) {
	prod := e.Settings()
	acks, idem := e.spaceAxis(kafkaconf.Acks), e.spaceAxis(kafkaconf.EnableIdempotence)
	idemOn := prod.EnableIdempotence.Set && prod.EnableIdempotence.V
	switch {
	case acks != nil && idemOn:
		for i, v := range acks.Values {
			if producerValue(kafkaconf.Acks, v) != "all" {
				c.add(acks.valuePos[i].errorf("advise.space acks %s contradicts the constraint enable.idempotence=true, which requires acks=all: every client refuses that candidate; drop %s, or enable.idempotence from producer:", v, v))
			}
		}
	case idem != nil && !prod.AcksAll():
		for i, v := range idem.Values {
			if producerValue(kafkaconf.EnableIdempotence, v) == "true" {
				c.add(idem.valuePos[i].errorf("advise.space enable.idempotence %s contradicts the constraint acks=%s: idempotence requires acks=all, and every client refuses that candidate; drop %s, or acks from producer:", v, prod.Acks.V, v))
			}
		}
	case acks != nil && idem != nil:
		for i, v := range idem.Values {
			if producerValue(kafkaconf.EnableIdempotence, v) != "true" {
				continue
			}
			for _, a := range acks.Values {
				if producerValue(kafkaconf.Acks, a) != "all" {
					c.add(idem.valuePos[i].errorf("advise.space crosses enable.idempotence %s with acks %s, a candidate every client refuses (idempotence requires acks=all): search one of them, or fix the other in producer:", v, a))
					return
				}
			}
		}
	}
}

// spaceAxis is the space's axis of the producer setting key, or nil.
func (e *Experiment) spaceAxis(key string) *SpaceAxis {
	for i := range e.Advise.Space {
		if e.Advise.Space[i].Key == key {
			return &e.Advise.Space[i]
		}
	}
	return nil
}

// candidateAxis is the generated axis: current (when given), defaults,
// then the space's points, the last setting varying fastest. A point
// equal to the current settings is left out: current stands for it.
func (e *Experiment) candidateAxis(at pos) Axis {
	a := &e.Advise
	ax := Axis{Key: CandidateAxis, pos: at, generated: true}
	kept := map[string]string{} // current settings the space does not search
	for k, v := range a.Current {
		if _, fixed := e.Producer[k]; !fixed && !slices.ContainsFunc(a.Space, func(s SpaceAxis) bool { return s.Key == k }) {
			kept[k] = v
		}
	}
	add := func(label string, set map[string]string, keyPos map[string]pos) {
		v := Value{Label: label, Set: map[string]string{}, keyPos: map[string]pos{}, pos: at, labelled: true}
		for k, val := range set {
			v.Set[producerPrefix+k] = val
			v.keyPos[producerPrefix+k] = keyPos[k]
		}
		ax.Values = append(ax.Values, v)
	}
	current := map[string]string{}
	for k, v := range a.Current {
		if _, fixed := e.Producer[k]; !fixed {
			current[k] = v
		}
	}
	if a.Current != nil {
		add(CurrentLabel, current, a.currentPos)
	}
	add(DefaultsLabel, nil, nil)
	idx := make([]int, len(a.Space))
	for {
		set, keyPos := maps.Clone(kept), map[string]pos{}
		for k := range kept {
			keyPos[k] = a.currentPos[k]
		}
		var parts []string
		for i, s := range a.Space {
			set[s.Key] = s.Values[idx[i]]
			if idx[i] < len(s.valuePos) { // the default space has no place in a file
				keyPos[s.Key] = s.valuePos[idx[i]]
			}
			parts = append(parts, s.Key+"="+s.Values[idx[i]])
		}
		if a.Current == nil || !maps.Equal(set, current) {
			add(strings.Join(parts, ","), set, keyPos)
		}
		i := len(idx) - 1
		for ; i >= 0; i-- {
			if idx[i]++; idx[i] < len(a.Space[i].Values) {
				break
			}
			idx[i] = 0
		}
		if i < 0 {
			return ax
		}
	}
}

// checkAdviseAtRate checks the budget of an advisor race at a fixed rate;
// that of one searching rates is checked with its search (checkCapacity).
func (e *Experiment) checkAdviseAtRate(scs []Scenario, c *collector) {
	if _, atRate := e.Mode().(adviseRateMode); atRate {
		e.checkAdviseBudget(scs, c)
	}
}

// checkAdviseBudget refuses an advise budget that cannot rank two
// candidates: a ceiling probe of every candidate, then two more probes of
// two of them; at a fixed rate, a trial of every candidate, then enough
// rounds of two of them for a verdict.
func (e *Experiment) checkAdviseBudget(scs []Scenario, c *collector) {
	if len(scs) == 0 {
		return
	}
	w := scs[0].Exp.Workload
	probe := TrialGapS + w.WarmupS + w.DurationS
	if isRateObjective(e.Advise.Objective) {
		// A trial of every candidate, then the rounds a verdict of the
		// pick against the current settings needs.
		if need := probe * float64(len(scs)+2*(stats.DefaultMinPairs-1)); need > e.BudgetS {
			c.add(e.posOr("capacity.budget", e.firstPos("advise")).errorf("advise.budget %s cannot fit a trial of each of %d candidates and the %d rounds a verdict of two of them needs (%s)",
				fmtSeconds(e.BudgetS), len(scs), stats.DefaultMinPairs, fmtSeconds(need)))
		}
		return
	}
	if need := probe * float64(len(scs)+4); need > e.Capacity.BudgetS {
		c.add(e.posOr("capacity.budget", e.firstPos("advise")).errorf("advise.budget %s cannot fit a ceiling probe of each of %d candidates and two more probes of two of them (%s)",
			fmtSeconds(e.Capacity.BudgetS), len(scs), fmtSeconds(need)))
	}
}

// Settings is a candidate scenario's producer settings beyond the
// constraints: what the search chose for it.
func (sc Scenario) Settings() map[string]string {
	set := map[string]string{}
	for k, v := range sc.Exp.Producer {
		if _, fixed := sc.Exp.Advise.Constraints[k]; !fixed {
			set[k] = v
		}
	}
	return set
}

// CandidateID is the scenario ID of the candidate labelled label.
func CandidateID(label string) string { return CandidateAxis + "=" + label }

// adviseYAML writes the advise section (nil without one).
func (e *Experiment) adviseYAML() yaml.MapSlice {
	a := e.Advise
	if !a.On {
		return nil
	}
	out := yaml.MapSlice{{Key: "objective", Value: a.Objective}}
	var space yaml.MapSlice
	for _, s := range a.Space {
		var vs []any
		for _, v := range s.Values {
			vs = append(vs, typedValue(producerPrefix+s.Key, v))
		}
		space = append(space, yaml.MapItem{Key: s.Key, Value: vs})
	}
	// The search's settings are advise's own: a capacity section beside
	// it is refused.
	var slo yaml.MapSlice
	for _, p := range figures.SLOPercentiles {
		if v, ok := e.Capacity.SLO[p.Key]; ok {
			slo = append(slo, yaml.MapItem{Key: p.Name + ".ms", Value: number(v)})
		}
	}
	if len(slo) > 0 {
		out = append(out, yaml.MapItem{Key: "slo", Value: slo})
	}
	precision, budget := e.Capacity.Precision, e.Capacity.BudgetS
	if isRateObjective(a.Objective) { // rounds at the rate: the run's own
		precision, budget = e.Precision, e.BudgetS
	}
	out = append(out, yaml.MapItem{Key: "keep.up", Value: number(e.Capacity.KeepUp)},
		yaml.MapItem{Key: "precision", Value: number(precision)},
		yaml.MapItem{Key: "budget", Value: fmtSeconds(budget)})
	out = append(out, yaml.MapItem{Key: "space", Value: space})
	switch {
	case a.CurrentFile != "":
		out = append(out, yaml.MapItem{Key: "current", Value: a.CurrentFile})
	case a.Current != nil:
		out = append(out, yaml.MapItem{Key: "current", Value: configSlice(a.Current, "")})
	}
	return out
}

// references names what the pick is judged against.
func (a Advise) references() string {
	if a.Current != nil {
		return "your current settings and the defaults"
	}
	return "the client's defaults"
}

// adviseMode races candidate settings by their sustainable rates: one
// capacity search per candidate, the worse dropped (advise: with
// objective sustainable).
type adviseMode struct{}

func (adviseMode) Name() string     { return "advise" }
func (adviseMode) Searches() bool   { return true }
func (adviseMode) Advises() bool    { return true }
func (adviseMode) SideBySide() bool { return false }

func (adviseMode) roundsText(e *Experiment, warm string) string {
	return warm + fmt.Sprintf("an advisor race: each candidate's sustainable rate searched (%s, keeping up %g), candidates decided worse than the best dropped, until the pick is known within ±%g %% and judged against %s (budget %s)",
		e.Capacity.SLOText(), e.Capacity.KeepUp, e.Capacity.Precision*100, e.Advise.references(), seconds(e.Capacity.BudgetS))
}

// measuredSeconds is the search's budget: it stops there at the latest.
func (adviseMode) measuredSeconds(e *Experiment, _ float64) float64 { return e.Capacity.BudgetS }

func (adviseMode) livesRefusal(lives string) string { return searchLivesRefusal(lives) }

func (adviseMode) UpperBound() string { return capacityMode{}.UpperBound() }

// adviseRateMode races candidate settings by a metric at a fixed
// workload.rate (RateObjectives): rounds of every candidate until the
// pick is precise.
type adviseRateMode struct{}

func (adviseRateMode) Name() string     { return "advise-rate" }
func (adviseRateMode) Searches() bool   { return true }
func (adviseRateMode) Advises() bool    { return true }
func (adviseRateMode) SideBySide() bool { return false }

func (adviseRateMode) roundsText(e *Experiment, warm string) string {
	return warm + fmt.Sprintf("an advisor race at %g msg/s: rounds of every candidate (each must keep up %g and hold %s), candidates decided worse than the best on %s dropped, until the pick is known within ±%g %% and judged against %s (budget %s)",
		e.Workload.Rate, e.Capacity.KeepUp, e.Capacity.SLOText(), e.Advise.Objective, e.Precision*100, e.Advise.references(), seconds(e.BudgetS))
}

// measuredSeconds is that of rounds until precise (trials: auto).
func (adviseRateMode) measuredSeconds(e *Experiment, round float64) float64 {
	return e.roundsSeconds(round)
}

func (adviseRateMode) livesRefusal(lives string) string { return searchLivesRefusal(lives) }

// UpperBound: the race's rounds run as trials: auto's, which says so.
func (adviseRateMode) UpperBound() string { return "" }
