package cli

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/spec"
)

// dryRun prints what `prodlab run` would do with exp, everything already
// checked: the scenarios with their cluster and client, the planned
// rounds and the run time to expect. Nothing starts.
func dryRun(w io.Writer, plan runPlan, f *runFlags) error {
	exp, scs := plan.exp, plan.scs
	fmt.Fprintf(w, "dry run of %s: %d scenarios, %s; nothing started\n", exp.Name, len(scs), exp.RoundsText())
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tSCENARIO\tCLUSTER\tCLIENT")
	for i, sc := range scs {
		client := sc.Exp.Client
		if d := plan.fleets.For(sc.Exp.Trogdor); d != nil {
			client = d.Name()
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\n", i+1, orBase(sc.ID), clusterText(sc.Exp.Cluster, f.bootstrap), client)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "planned time: %s\n", plannedText(exp, scs, f.bootstrap != ""))
	return nil
}

// clusterStartS is about how long an embedded cluster takes to start here
// (the lab's logs say "cluster ready in 10.4s").
const clusterStartS = 10

// plannedText says how long the run will take: spec's estimate of the
// trials plus the clusters' starts, flagged as a lower bound when a
// scenario is an unthrottled burst (its send time is known only once it
// runs) and as a ceiling under trials: auto (the budget).
func plannedText(exp *spec.Experiment, scs []spec.Scenario, external bool) string {
	d := exp.PlannedDuration()
	if !external {
		d += time.Duration(len(clusterShapes(scs))*clusterStartS) * time.Second
	}
	s := "about " + d.Round(time.Second).String()
	var notes []string
	if exp.TrialsAuto {
		notes = append(notes, "at most: trials: auto stops earlier once every comparison is precise")
	}
	for _, sc := range scs {
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
func clusterShapes(scs []spec.Scenario) []spec.Cluster {
	var out []spec.Cluster
	for _, sc := range scs {
		if !slices.ContainsFunc(out, func(c spec.Cluster) bool { return c.Key() == sc.Exp.Cluster.Key() }) {
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
func clusterText(c spec.Cluster, bootstrap string) string {
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
