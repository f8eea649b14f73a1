package app

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/expfile"
)

// PlanRow is one scenario of a plan as a dry run shows it: where it runs
// and with which client.
type PlanRow struct {
	Scenario, Cluster, Client string
}

// Rows lists the plan's scenarios in order.
func (p *Plan) Rows() []PlanRow {
	rows := make([]PlanRow, 0, len(p.Scenarios))
	for _, sc := range p.Scenarios {
		client := sc.Exp.Client
		if d := p.fleets.For(sc.Exp.Trogdor); d != nil {
			client = d.DriverOf(sc.Exp.Client).Name()
		}
		rows = append(rows, PlanRow{Scenario: orBase(sc.ID), Cluster: clusterText(sc.Exp.Cluster, p.req.Bootstrap), Client: client})
	}
	return rows
}

// clusterStartS is about how long an embedded cluster takes to start here
// (the lab's logs say "cluster ready in 10.4s").
const clusterStartS = 10

// Estimate says how long the run will take: expfile's estimate of the
// trials plus the clusters' starts, flagged as a lower bound when a
// scenario is an unthrottled burst (its send time is known only once it
// runs) and as a ceiling under trials: auto (the budget).
func (p *Plan) Estimate() string {
	d := p.Exp.PlannedDuration()
	if p.Bootstrap == nil && !p.Exp.LivesAuto { // lives: auto's budget holds its starts
		d += time.Duration(len(clusterShapes(p.Scenarios))*p.Exp.ClusterLives()*clusterStartS) * time.Second
	}
	s := "about " + d.Round(time.Second).String()
	var notes []string
	switch bound := p.Exp.Mode().UpperBound(); {
	case bound != "":
		notes = append(notes, bound)
	case p.Exp.LivesAuto:
		notes = append(notes, "at most: lives: auto stops earlier once every comparison is precise over its lives")
	case p.Exp.TrialsAuto:
		notes = append(notes, "at most: trials: auto stops earlier once every comparison is precise")
	}
	for _, sc := range p.Scenarios {
		if !sc.Exp.Steady() && sc.Exp.Workload.Rate == 0 {
			notes = append(notes, "at least: unthrottled bursts last as long as the cluster takes to absorb their records")
			break
		}
	}
	if len(notes) > 0 {
		s += " (" + strings.Join(notes, "; ") + ")"
	}
	return s
}

// clusterShapes lists the distinct clusters the scenarios need.
func clusterShapes(scs []expfile.Scenario) []expfile.Cluster {
	var out []expfile.Cluster
	for _, sc := range scs {
		if !slices.ContainsFunc(out, func(c expfile.Cluster) bool { return c.Key() == sc.Exp.Cluster.Key() }) {
			out = append(out, sc.Exp.Cluster)
		}
	}
	return out
}

// orBase names the scenario of an experiment without a matrix.
func orBase(id string) string {
	if id == "" {
		return "(base)"
	}
	return id
}

// clusterText describes where a scenario runs.
func clusterText(c expfile.Cluster, bootstrap string) string {
	if bootstrap != "" {
		return "existing cluster at " + bootstrap
	}
	kafka := c.Kafka
	if kafka == "" {
		kafka = cluster.DefaultKafka
	}
	brokers := "1 broker"
	if c.Brokers != 1 {
		brokers = fmt.Sprintf("%d brokers", c.Brokers)
	}
	return strings.Join(append([]string{brokers, "Kafka " + kafka}, c.Extras()...), ", ")
}
