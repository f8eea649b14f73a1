package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/cluster"
)

func newClusterCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "cluster",
		Short: "Keep an embedded Kafka cluster running between runs (up, status, down)",
		Example: `  prodlab cluster up --brokers 3
  prodlab run batching --bootstrap "$(prodlab cluster status --bootstrap)"
  prodlab cluster down`,
	}
	c.AddCommand(newClusterUpCmd(), newClusterStatusCmd(), newClusterDownCmd())
	requireSubcommand(c)
	return c
}

func newClusterUpCmd() *cobra.Command {
	var (
		brokers int
		kafka   string
		dir     string
	)
	c := &cobra.Command{
		Use:   "up",
		Short: "Start a detached embedded cluster on 127.0.0.1 and print its bootstrap address",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			path := cluster.DefaultStatePath()
			// Held until the state is saved: a second `up` is refused at
			// once instead of starting a cluster the state cannot record.
			unlock, err := cluster.LockState(path)
			if err != nil {
				return err
			}
			defer unlock()
			if s, err := cluster.LoadState(path); err == nil && len(s.LiveBrokers()) > 0 {
				return usage(fmt.Errorf("a cluster is already up at %s (run 'prodlab cluster down' first)", strings.Join(s.Bootstrap, ",")))
			}
			if brokers < 1 || brokers > cluster.MaxBrokers {
				return usage(fmt.Errorf("--brokers must be between 1 and %d, got %d", cluster.MaxBrokers, brokers))
			}
			if err := cluster.CheckMemory(brokers, 0); err != nil {
				return usage(fmt.Errorf("--brokers: %w", err))
			}
			ctx, cancel := context.WithTimeout(c.Context(), 5*time.Minute)
			defer cancel()
			if err := cluster.CheckKafka(ctx, kafka); err != nil {
				return usage(fmt.Errorf("--kafka: %w", err))
			}
			if dir == "" {
				dir = filepath.Join(filepath.Dir(path), "cluster-"+time.Now().Format("20060102-150405"))
			}
			cl, err := cluster.Start(ctx, cluster.Config{Brokers: brokers, Kafka: kafka, Dir: dir, Detached: true})
			if err != nil {
				return err
			}
			if err := cluster.SaveState(path, cl); err != nil {
				_ = cl.Stop()
				return err
			}
			fmt.Fprintf(c.ErrOrStderr(), "Kafka %s with %d broker(s) is up; logs in %s\n", cl.Version(), brokers, dir)
			fmt.Fprintln(c.OutOrStdout(), strings.Join(cl.Bootstrap(), ","))
			return nil
		},
	}
	c.Flags().IntVar(&brokers, "brokers", 1, fmt.Sprintf("number of brokers (1-%d, as many as fit in memory)", cluster.MaxBrokers))
	c.Flags().StringVar(&kafka, "kafka", "", "Kafka release (default "+cluster.DefaultKafka+") or a local distribution directory")
	c.Flags().StringVar(&dir, "dir", "", "directory for broker data and logs")
	return c
}

func newClusterStatusCmd() *cobra.Command {
	var bootstrapOnly bool
	c := &cobra.Command{
		Use:   "status",
		Short: "Show the detached cluster started by 'cluster up' (exit 1 if none is up)",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			s, err := cluster.LoadState(cluster.DefaultStatePath())
			if errors.Is(err, os.ErrNotExist) {
				return errors.New("no cluster is up (start one with 'prodlab cluster up')")
			}
			if err != nil {
				return err
			}
			live := s.LiveBrokers()
			if bootstrapOnly {
				if len(live) == 0 {
					return errors.New("no cluster is up")
				}
				fmt.Fprintln(c.OutOrStdout(), strings.Join(s.Bootstrap, ","))
				return nil
			}
			fmt.Fprintf(c.OutOrStdout(), "Kafka %s, %d of %d broker(s) running, bootstrap %s, dir %s\n",
				s.Version, len(live), len(s.Brokers), strings.Join(s.Bootstrap, ","), s.Dir)
			for _, b := range s.Brokers {
				state := "stopped"
				for _, l := range live {
					if l.ID == b.ID {
						state = "running"
					}
				}
				fmt.Fprintf(c.OutOrStdout(), "  broker %d  %s  pid %d  %s\n", b.ID, b.Addr, b.PID, state)
			}
			if len(live) == 0 {
				return errors.New("no broker of the recorded cluster is running")
			}
			return nil
		},
	}
	c.Flags().BoolVar(&bootstrapOnly, "bootstrap", false, "print only the bootstrap address")
	return c
}

func newClusterDownCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "down",
		Short: "Stop the detached cluster started by 'cluster up'",
		Args:  argsUsage(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			path := cluster.DefaultStatePath()
			// Not while an `up` is starting the cluster it will record.
			unlock, err := cluster.LockState(path)
			if err != nil {
				return err
			}
			defer unlock()
			s, err := cluster.LoadState(path)
			if errors.Is(err, os.ErrNotExist) {
				fmt.Fprintln(c.ErrOrStderr(), "no cluster is up")
				return nil
			}
			if err != nil {
				return err
			}
			if err := cluster.StopState(s); err != nil {
				return err
			}
			if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove cluster state: %w", err)
			}
			fmt.Fprintln(c.ErrOrStderr(), "cluster stopped")
			return nil
		},
	}
}
