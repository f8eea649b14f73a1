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
	// Objective is what the search maximises: "sustainable.rate".
	Objective string `json:"objective"`
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
	ScenarioID  string      `json:"scenario_id"`
	Sustainable Sustainable `json:"sustainable"`
	// Percentile names the SLO percentile LatencyMs is ("p99"); LatencyMs
	// is it, from the intended send time, at the candidate's highest
	// passing probe (0 when no probe passed).
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
	Sustainable Sustainable       `json:"sustainable"`
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
	Text       string  `json:"text"`
}

// AdviceRunnerUp is a candidate not told apart from the pick.
type AdviceRunnerUp struct {
	ScenarioID  string            `json:"scenario_id"`
	Settings    map[string]string `json:"settings"`
	Sustainable Sustainable       `json:"sustainable"`
	// Kind and Text are its verdict against the pick.
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// WriteAdvice writes dir/advice.json whole.
func WriteAdvice(dir string, a Advice) error { return writeJSONFile(dir, AdviceFile, a) }

// ReadAdvice reads dir/advice.json; ok is false, with no error, when the
// run has none.
func ReadAdvice(dir string) (a Advice, ok bool, err error) {
	ok, err = readJSONFile(dir, AdviceFile, &a)
	return a, ok, err
}
