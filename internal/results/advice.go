package results

// Files of an advise run (an experiment with an advise: section).
const (
	AdviceFile           = "advice.json"       // the advisor's answer: the pick, its proof and the runners-up
	AdvicePropertiesFile = "advice.properties" // the pick as a ready-to-use producer .properties file
)

// AdvicePlan is the advise: section a run searched with, saved in
// plan.json: the objective, which scenario holds the user's current
// settings and which the client's defaults, and every candidate's
// settings, so the answer needs nothing but the run directory.
type AdvicePlan struct {
	// Objective is what the search optimises: "sustainable.rate" (the
	// highest), or a metric key judged at a fixed rate ("cpu.total",
	// "p99.intended": the lowest).
	Objective string `json:"objective"`
	// RecordsPerS is the fixed offered rate of a rate objective; SLO and
	// KeepUp are what every candidate must hold there (a sustainable-rate
	// search keeps them in the plan's capacity section instead).
	RecordsPerS float64            `json:"records_per_s,omitempty"`
	SLO         map[string]float64 `json:"slo,omitempty"`
	KeepUp      float64            `json:"keep_up,omitempty"`
	// Client is the experiment's client ("java", "franz-go@1.18.0"): the
	// pick's file shows franz-go's option names beside the Java ones.
	Client string `json:"client,omitempty"`
	// Current and Defaults are the scenario IDs of the user's current
	// settings and of the client's defaults (equal when no current
	// settings were given).
	Current  string `json:"current"`
	Defaults string `json:"defaults"`
	// Constraints are the producer settings the search never changes
	// (the experiment's producer: section).
	Constraints map[string]string `json:"constraints"`
	// Space lists the searched settings in order, each with its values.
	Space []AdviceAxis `json:"space"`
	// Candidates are every scenario's producer settings beyond the
	// constraints (the space's point, or the current settings).
	Candidates []AdviceCandidate `json:"candidates"`
}

// AdviceAxis is one searched setting and the values tried.
type AdviceAxis struct {
	Key    string   `json:"key"`
	Values []string `json:"values"`
}

// AdviceCandidate is one scenario of an advise run and its settings.
type AdviceCandidate struct {
	ScenarioID string            `json:"scenario_id"`
	Settings   map[string]string `json:"settings"`
}

// Advice is advice.json: the advisor's answer.
type Advice struct {
	// Objective is what was maximised; Answer says in one sentence what
	// to do ("use the pick", "keep your settings", "cannot tell yet").
	Objective string `json:"objective"`
	Answer    string `json:"answer"`
	// Recommend is true only when the pick was decided better than the
	// current settings by a verdict.
	Recommend bool `json:"recommend"`
	// Pick is the best candidate found (the highest sustainable rate whose
	// interval is closed), with every producer setting to use: the
	// constraints and its own.
	Pick *AdvicePick `json:"pick"`
	// Verdicts judge the pick against the current settings and the
	// client's defaults.
	Verdicts []AdviceVerdict `json:"verdicts"`
	// RunnersUp are the candidates the verdicts could not tell from the
	// pick (equivalent or inconclusive), best first.
	RunnersUp []AdviceRunnerUp `json:"runners_up"`
	// Dropped counts the candidates decided worse than the pick (or never
	// measured well enough to rank).
	Dropped int `json:"dropped"`
	// Why explains, from measured figures, each setting that moved.
	Why []string `json:"why,omitempty"`
	// Candidates are every candidate with an estimate: its sustainable
	// rate, the SLO percentile at its highest passing probe, and whether
	// it is on the Pareto front of the two (no other candidate sustains
	// more at no higher latency).
	Candidates []AdviceScore `json:"candidates"`
}

// AdviceScore is one candidate's place among the others.
type AdviceScore struct {
	ScenarioID string `json:"scenario_id"`
	// Sustainable is the candidate's sustainable rate (objective
	// sustainable.rate); Score its objective's figure at the fixed rate
	// (a rate objective). One of the two is set.
	Sustainable *Sustainable `json:"sustainable,omitempty"`
	Score       *AdviceValue `json:"score,omitempty"`
	// Percentile names the SLO percentile LatencyMs is ("p99", from the
	// intended send time; "e2e.p99", end to end); LatencyMs is it at the
	// candidate's highest passing probe (0 when no probe passed).
	Percentile string  `json:"percentile"`
	LatencyMs  float64 `json:"latency_ms"`
	Pareto     bool    `json:"pareto"`
}

// AdvicePick is the chosen candidate.
type AdvicePick struct {
	ScenarioID string            `json:"scenario_id"`
	Settings   map[string]string `json:"settings"`
	// Properties are every producer setting of the pick: the constraints
	// and its own, as advice.properties writes them.
	Properties  map[string]string `json:"properties"`
	Sustainable *Sustainable      `json:"sustainable,omitempty"`
	Score       *AdviceValue      `json:"score,omitempty"`
	// Held says, for a rate objective, in how many of its trials the pick
	// held the SLO and kept up ("12 of 12 trials").
	Held string `json:"held,omitempty"`
	// Constraints says which constraints were checked on the pick's own
	// trials, as the client reported the settings it ran with.
	Constraints string `json:"constraints_checked,omitempty"`
}

// AdviceValue is a candidate's figure on a rate objective: the mean over
// its trials and the interval at the run's level, in the metric's unit.
type AdviceValue struct {
	Metric string  `json:"metric"`
	Unit   string  `json:"unit"`
	Mean   float64 `json:"mean"`
	Lo     float64 `json:"lo"`
	Hi     float64 `json:"hi"`
	Level  float64 `json:"level"`
	Trials int     `json:"trials"`
}

// AdviceVerdict is the pick judged against one reference.
type AdviceVerdict struct {
	// Against is "current" or "defaults"; ScenarioID names it.
	Against    string  `json:"against"`
	ScenarioID string  `json:"scenario_id"`
	Metric     string  `json:"metric"`
	Kind       string  `json:"kind"`
	Diff       float64 `json:"diff"`
	Lo         float64 `json:"lo"`
	Hi         float64 `json:"hi"`
	// AtLeast marks a one-sided verdict: the reference's interval is open
	// below (it passed next to no probe) and lies wholly under the pick's,
	// so Lo is the least difference and Diff and Hi have no value.
	AtLeast bool   `json:"at_least,omitempty"`
	Text    string `json:"text"`
}

// AdviceRunnerUp is a candidate not told apart from the pick.
type AdviceRunnerUp struct {
	ScenarioID  string            `json:"scenario_id"`
	Settings    map[string]string `json:"settings"`
	Sustainable *Sustainable      `json:"sustainable,omitempty"`
	Score       *AdviceValue      `json:"score,omitempty"`
	// Kind and Text are its verdict against the pick.
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// WriteAdvice writes dir/advice.json whole.
func WriteAdvice(dir string, a Advice) error { return writeJSONFile(dir, AdviceFile, a) }

// ReadAdvice reads dir/advice.json; ok is false, with no error, when the
// run has none.
func ReadAdvice(dir string) (a Advice, ok bool, err error) {
	ok, err = readJSONFile(dir, AdviceFile, "a prodlab advice record", &a)
	return a, ok, err
}
