package results

// Load is a rate-limited trial's offered load and the share of it the
// producer achieved over the measured window: what "kept up" is judged on.
type Load struct {
	// OfferedRecordsPerS is the rate the trial asked for (workload.rate,
	// or the capacity search's probe rate).
	OfferedRecordsPerS float64 `json:"offered_records_per_s"`
	// Achieved is throughput.records_per_s ÷ OfferedRecordsPerS: 1 when
	// the producer kept up exactly, below 1 when it fell behind.
	Achieved float64 `json:"achieved"`
}

// Probe is the capacity search's judgement of one trial (capacity:): did
// the producer sustain the offered rate within the SLO?
type Probe struct {
	// Ceiling marks the unthrottled trial that bounds the search from
	// above; it is neither a pass nor a fail.
	Ceiling bool `json:"ceiling,omitempty"`
	// Pass is true when the producer kept up (within the window's
	// resolution), the window was steady, no record failed and every SLO
	// percentile held; false on a ceiling probe, where it means nothing.
	Pass bool `json:"pass"`
	// Why says, for a failed probe, every reason it failed, e.g.
	// "kept up 0.9300 < 0.99 (resolution ±0.0010); p99 from the intended
	// send time 132.0 ms > 100 ms".
	Why string `json:"why,omitempty"`
	// Settings are the producer settings that decide where the knee
	// falls, as the client used them: buffer.memory, batch.size,
	// linger.ms, max.in.flight.requests.per.connection and
	// max.buffered.records.
	Settings map[string]string `json:"settings,omitempty"`
}

// CapacityPlan is the capacity: section a run searched with, saved in
// plan.json.
type CapacityPlan struct {
	// SLO maps a percentile of the latency from the intended send time
	// ("p50", "p95", "p99", "p999") to its bound in milliseconds.
	SLO map[string]float64 `json:"slo"`
	// KeepUp is the least achieved ÷ offered rate that counts as keeping
	// up; Precision the relative half-width the search aims for.
	KeepUp    float64 `json:"keep_up"`
	Precision float64 `json:"precision"`
	BudgetS   float64 `json:"budget_s"`
}

// Capacity is one scenario's answer in capacity.json.
type Capacity struct {
	ScenarioID  string             `json:"scenario_id"`
	Sustainable Sustainable        `json:"sustainable"`
	SLO         map[string]float64 `json:"slo"`
	KeepUp      float64            `json:"keep_up"`
	// Probes counts the pass/fail probes (the ceiling probe not
	// included); Passes those that passed.
	Probes int `json:"probes"`
	Passes int `json:"passes"`
	// CeilingRecordsPerS is what the unthrottled probe achieved (0 when
	// none ran).
	CeilingRecordsPerS float64 `json:"ceiling_records_per_s,omitempty"`
	// Precision is the interval's relative half-width reached and the
	// target.
	Precision Precision `json:"precision"`
}

// Sustainable is a sustainable rate with its interval at Level. Edge is
// "below" when the interval reaches the search's bottom (always when no
// probed rate passed: the rate lies under Hi), "above" when it reaches
// the top (always when every one passed: it lies over Lo), "" when the
// search bracketed it (stats.Threshold.Edge).
type Sustainable struct {
	RecordsPerS float64 `json:"records_per_s"`
	MBPerS      float64 `json:"mb_per_s"`
	Lo          float64 `json:"lo"`
	Hi          float64 `json:"hi"`
	Level       float64 `json:"level"`
	Edge        string  `json:"edge,omitempty"`
}

// WriteCapacity writes dir/capacity.json whole.
func WriteCapacity(dir string, cs []Capacity) error {
	if cs == nil {
		cs = []Capacity{}
	}
	return writeJSONFile(dir, CapacityFile, cs)
}

// ReadCapacity reads dir/capacity.json; ok is false, with no error, when
// the run has none.
func ReadCapacity(dir string) (cs []Capacity, ok bool, err error) {
	ok, err = readJSONFile(dir, CapacityFile, "a prodlab capacity record", &cs)
	return cs, ok, err
}
