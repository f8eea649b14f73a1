package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/trogdor"
)

// newTrogdorCmd is `prodlab trogdor`: a local Trogdor fleet (Apache Kafka's
// distributed workload engine) kept running between commands, as `cluster`
// keeps brokers.
func newTrogdorCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "trogdor",
		Short: "Keep a local Trogdor fleet (coordinator + agents running prodlab's task) up between commands (up, status, down)",
		Long: `Keep a local Trogdor fleet up between commands: a coordinator and N agents
on 127.0.0.1, trogdor from Maven Central with prodlab's worker jar on their
class path. prodlab run --trogdor URL then runs every trial as one Trogdor
task over the agents (docs/distributed.md; a fleet of your own hosts works
the same way).`,
		Example: `  prodlab trogdor up --agents 2
  prodlab run producers --trogdor "$(prodlab trogdor status --url)"
  prodlab trogdor status
  prodlab trogdor down`,
	}
	c.AddCommand(newTrogdorUpCmd(), newTrogdorStatusCmd(), newTrogdorDownCmd())
	requireSubcommand(c)
	return c
}

func newTrogdorUpCmd() *cobra.Command {
	var (
		agents  int
		release string
		dir     string
	)
	c := &cobra.Command{
		Use:   "up",
		Short: "Start a detached coordinator and agents on 127.0.0.1 and print the coordinator's URL",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			path := trogdor.DefaultStatePath()
			unlock, err := trogdor.LockState(path)
			if err != nil {
				return err
			}
			defer unlock()
			if s, err := trogdor.LoadState(path); err == nil && len(s.LiveNodes()) > 0 {
				return usage(fmt.Errorf("a trogdor fleet is already up at %s (run 'prodlab trogdor down' first)", s.URL))
			}
			if dir == "" {
				dir = filepath.Join(filepath.Dir(path), "trogdor-"+time.Now().Format("20060102-150405"))
			}
			cfg := trogdor.Config{Agents: agents, Release: release, WorkerJar: workerJar(), Dir: dir, Detached: true}
			if agents < 1 || agents > trogdor.MaxAgents {
				return usage(fmt.Errorf("--agents must be between 1 and %d, got %d", trogdor.MaxAgents, agents))
			}
			if err := trogdor.CheckRelease(release); err != nil {
				return usage(fmt.Errorf("--release: %w", err))
			}
			if _, err := os.Stat(cfg.WorkerJar); err != nil {
				return usage(fmt.Errorf("the Java worker is not at %s: build it with 'make build' (or point PRODLAB_WORKER_JAR at it)", cfg.WorkerJar))
			}
			ctx, cancel := context.WithTimeout(c.Context(), 5*time.Minute)
			defer cancel()
			f, err := trogdor.Start(ctx, cfg)
			if err != nil {
				return err
			}
			if err := trogdor.SaveState(path, trogdor.StateOf(f)); err != nil {
				_ = f.Stop()
				return err
			}
			fmt.Fprintf(c.ErrOrStderr(), "Trogdor %s: coordinator and %d agent(s) up; config and logs in %s\n", f.Release, agents, dir)
			fmt.Fprintln(c.OutOrStdout(), f.URL())
			return nil
		},
	}
	c.Flags().IntVar(&agents, "agents", 2, fmt.Sprintf("number of agents (1-%d)", trogdor.MaxAgents))
	c.Flags().StringVar(&release, "release", trogdor.DefaultRelease, "trogdor release from Maven Central (its kafka-clients is the agents' client)")
	c.Flags().StringVar(&dir, "dir", "", "directory for the fleet's config file and logs")
	return c
}

func newTrogdorStatusCmd() *cobra.Command {
	var urlOnly bool
	c := &cobra.Command{
		Use:   "status",
		Short: "Show the fleet started by 'trogdor up', as its coordinator reports it (exit 1 if none is up)",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			s, err := trogdor.LoadState(trogdor.DefaultStatePath())
			if errors.Is(err, os.ErrNotExist) {
				return errors.New("no trogdor fleet is up (start one with 'prodlab trogdor up')")
			}
			if err != nil {
				return err
			}
			if urlOnly {
				fmt.Fprintln(c.OutOrStdout(), s.URL)
				return nil
			}
			ctx, cancel := context.WithTimeout(c.Context(), 15*time.Second)
			defer cancel()
			return printTrogdorStatus(ctx, c.OutOrStdout(), s)
		},
	}
	c.Flags().BoolVar(&urlOnly, "url", false, "print only the coordinator's URL")
	return c
}

// printTrogdorStatus prints the fleet's nodes (running or stopped) and the
// coordinator's view: when it started and its tasks by state.
func printTrogdorStatus(ctx context.Context, w io.Writer, s *trogdor.State) error {
	live := map[string]bool{}
	for _, n := range s.LiveNodes() {
		live[n.Name] = true
	}
	fmt.Fprintf(w, "Trogdor %s, coordinator %s, %d of %d node(s) running, dir %s\n",
		s.Release, s.URL, len(live), len(s.Nodes()), s.Dir)
	for _, n := range s.Nodes() {
		state := "stopped"
		if live[n.Name] {
			state = "running"
		}
		fmt.Fprintf(w, "  %-12s 127.0.0.1:%d  pid %d  %s\n", n.Name, n.Port, n.PID, state)
	}
	cl := trogdor.NewClient(s.URL)
	st, err := cl.Status(ctx)
	if err != nil {
		return fmt.Errorf("coordinator status: %w", err)
	}
	tasks, err := cl.Tasks(ctx)
	if err != nil {
		return fmt.Errorf("coordinator tasks: %w", err)
	}
	fmt.Fprintf(w, "coordinator up since %s, %d task(s)\n", time.UnixMilli(st.ServerStartMs).UTC().Format(time.RFC3339), len(tasks))
	ids := make([]string, 0, len(tasks))
	for id := range tasks {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t := tasks[id]
		line := fmt.Sprintf("  task %s  %s", id, t.State)
		if t.Error != "" {
			line += "  error: " + t.Error
		}
		fmt.Fprintln(w, line)
	}
	return nil
}

func newTrogdorDownCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "down",
		Short: "Stop the fleet started by 'trogdor up'",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			path := trogdor.DefaultStatePath()
			unlock, err := trogdor.LockState(path)
			if err != nil {
				return err
			}
			defer unlock()
			s, err := trogdor.LoadState(path)
			if errors.Is(err, os.ErrNotExist) {
				fmt.Fprintln(c.ErrOrStderr(), "no trogdor fleet is up")
				return nil
			}
			if err != nil {
				return err
			}
			if err := trogdor.StopState(s); err != nil {
				return err
			}
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove trogdor state: %w", err)
			}
			fmt.Fprintln(c.ErrOrStderr(), "trogdor fleet stopped")
			return nil
		},
	}
}
