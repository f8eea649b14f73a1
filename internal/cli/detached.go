package cli

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/app"
)

// detachedHelp is the help of one detached service's command group: its
// texts and how its up and status flags are spelled.
type detachedHelp struct {
	svc                      app.Detached
	short, long, example     string
	upShort, statusShort     string
	downShort                string
	countFlag, countHelp     string
	countDefault             int
	releaseFlag, releaseHelp string
	releaseDefault           string
	dirHelp                  string
	addressFlag, addressHelp string
	dryRunHelp               string
}

// clusterHelp is `prodlab cluster`.
var clusterHelp = detachedHelp{
	svc:   app.Cluster,
	short: "Keep an embedded Kafka cluster running between runs (up, status, down)",
	example: `  prodlab cluster up --brokers 3 --dry-run   # what it would start; starts nothing
  prodlab cluster up --brokers 3
  prodlab run batching --bootstrap "$(prodlab cluster status --bootstrap)"
  prodlab cluster down`,
	upShort:     "Start a detached embedded cluster on 127.0.0.1 and print its bootstrap address",
	statusShort: "Show the detached cluster started by 'cluster up' (exit 1 if none is up)",
	downShort:   "Stop the detached cluster started by 'cluster up'",
	countFlag:   "brokers", countDefault: 1,
	countHelp:   fmt.Sprintf("number of brokers (1-%d, as many as fit in memory)", app.Cluster.MaxCount),
	releaseFlag: "kafka",
	releaseHelp: "Kafka release (default " + app.Cluster.DefaultRelease + ") or a local distribution directory",
	dirHelp:     "directory for broker data and logs",
	addressFlag: "bootstrap", addressHelp: "print only the bootstrap address",
	dryRunHelp: "check the flags as up does (resolving the release: one not yet in the cache is downloaded) and print what would start (brokers, ports, heap, directory); start and record nothing",
}

// trogdorHelp is `prodlab trogdor`: a local Trogdor fleet (Apache Kafka's
// distributed workload engine) kept running between commands, as
// `cluster` keeps brokers.
var trogdorHelp = detachedHelp{
	svc:   app.Fleet,
	short: "Keep a local Trogdor fleet (coordinator + agents running prodlab's task) up between commands (up, status, down)",
	long: `Keep a local Trogdor fleet up between commands: a coordinator and N agents
on 127.0.0.1, trogdor from Maven Central with prodlab's worker jar on their
class path. prodlab run --trogdor URL then runs every trial as one Trogdor
task over the agents (docs/distributed.md; a fleet of your own hosts works
the same way).`,
	example: `  prodlab trogdor up --agents 2 --dry-run   # what it would start; starts nothing
  prodlab trogdor up --agents 2
  prodlab run producers --trogdor "$(prodlab trogdor status --url)"
  prodlab trogdor status
  prodlab trogdor down`,
	upShort:     "Start a detached coordinator and agents on 127.0.0.1 and print the coordinator's URL",
	statusShort: "Show the fleet started by 'trogdor up', as its coordinator reports it (exit 1 if none is up)",
	downShort:   "Stop the fleet started by 'trogdor up'",
	countFlag:   "agents", countDefault: 2,
	countHelp:   fmt.Sprintf("number of agents (1-%d)", app.Fleet.MaxCount),
	releaseFlag: "release", releaseDefault: app.Fleet.DefaultRelease,
	releaseHelp: "trogdor release from Maven Central (its kafka-clients is the agents' client)",
	dirHelp:     "directory for the fleet's config file and logs",
	addressFlag: "url", addressHelp: "print only the coordinator's URL",
	dryRunHelp: "check the flags as up does and print what would start (release, agents, ports, directory); start, download and record nothing",
}

func newClusterCmd() *cobra.Command { return newDetachedCmd(clusterHelp) }

func newTrogdorCmd() *cobra.Command { return newDetachedCmd(trogdorHelp) }

// newDetachedCmd is a service's command group: up, status and down.
func newDetachedCmd(h detachedHelp) *cobra.Command {
	c := &cobra.Command{Use: h.svc.Command, Short: h.short, Long: h.long, Example: h.example}
	c.AddCommand(newUpCmd(h), newStatusCmd(h), newDownCmd(h))
	requireSubcommand(c)
	return c
}

func newUpCmd(h detachedHelp) *cobra.Command {
	var req app.UpRequest
	var dryRun bool
	c := &cobra.Command{
		Use:   "up",
		Short: h.upShort,
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if c.Flags().Changed(h.releaseFlag) && strings.TrimSpace(req.Release) == "" { // else the default would start, unasked
				return usage(fmt.Errorf("--%s is empty: give a release such as %s, or leave the flag out for that default", h.releaseFlag, h.svc.DefaultRelease))
			}
			if dryRun {
				plan, err := h.svc.DryRun(c.Context(), req)
				if err != nil {
					return err
				}
				fmt.Fprintln(c.OutOrStdout(), strings.Join(plan, "\n"))
				return nil
			}
			up, err := h.svc.Up(c.Context(), req)
			if err != nil {
				return err
			}
			fmt.Fprintln(c.ErrOrStderr(), up.Note)
			fmt.Fprintln(c.OutOrStdout(), up.Address)
			return nil
		},
	}
	c.Flags().IntVar(&req.Count, h.countFlag, h.countDefault, h.countHelp)
	c.Flags().StringVar(&req.Release, h.releaseFlag, h.releaseDefault, h.releaseHelp)
	c.Flags().StringVar(&req.Dir, "dir", "", h.dirHelp)
	c.Flags().BoolVar(&dryRun, "dry-run", false, h.dryRunHelp)
	return c
}

func newStatusCmd(h detachedHelp) *cobra.Command {
	var addressOnly bool
	c := &cobra.Command{
		Use:   "status",
		Short: h.statusShort,
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			if addressOnly {
				addr, err := h.svc.Address()
				if err != nil {
					return err
				}
				fmt.Fprintln(c.OutOrStdout(), addr)
				return nil
			}
			s, err := h.svc.Status(c.Context())
			if s != nil {
				printStatus(c.OutOrStdout(), h.svc, s)
			}
			return err
		},
	}
	c.Flags().BoolVar(&addressOnly, h.addressFlag, false, h.addressHelp)
	return c
}

// printStatus prints a service's status: a summary line, a line per
// process (running or stopped), then the coordinator's view of a fleet:
// when it started and its tasks by state.
func printStatus(w io.Writer, d app.Detached, s *app.Status) {
	fmt.Fprintf(w, "%s, %s %s, %d of %d %s(s) running, dir %s\n",
		s.Title, s.AddressName, s.Address, s.Live(), len(s.Nodes), d.NodeNoun, s.Dir)
	for _, n := range s.Nodes {
		state := "stopped"
		if n.Running {
			state = "running"
		}
		fmt.Fprintf(w, "  %-12s %s  pid %d  %s\n", n.Name, n.Addr, n.PID, state)
	}
	if s.Coordinator == nil {
		return
	}
	fmt.Fprintf(w, "coordinator up since %s, %d task(s)\n", s.Coordinator.Since.Format(time.RFC3339), len(s.Coordinator.Tasks))
	for _, t := range s.Coordinator.Tasks {
		line := fmt.Sprintf("  task %s  %s", t.ID, t.State)
		if t.Error != "" {
			line += "  error: " + t.Error
		}
		fmt.Fprintln(w, line)
	}
}

func newDownCmd(h detachedHelp) *cobra.Command {
	return &cobra.Command{
		Use:   "down",
		Short: h.downShort,
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			stopped, err := h.svc.Down()
			switch {
			case err != nil:
				return err
			case !stopped:
				fmt.Fprintf(c.ErrOrStderr(), "no %s is up\n", h.svc.Noun)
			default:
				fmt.Fprintf(c.ErrOrStderr(), "%s stopped\n", h.svc.Noun)
			}
			return nil
		},
	}
}
