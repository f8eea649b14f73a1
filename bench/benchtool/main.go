// Command benchtool is bench/run.sh's helper: it resolves Java artifacts
// into prodlab's Maven cache (so kafka-producer-perf-test runs from the same
// jars prodlab uses) and creates or deletes topics, so that every measured
// run writes to a fresh topic and the bench does not fill the disk.
//
//	benchtool classpath org.apache.kafka:kafka-tools:4.3.0   # prints a class path
//	benchtool create-topic -bootstrap B -partitions 1 TOPIC...
//	benchtool delete-topic -bootstrap B TOPIC...
//	benchtool paired < PAIRS     # "A B" per line → geometric mean A/B and its 95 % CI
//	benchtool gaps results.jsonl...  # time between trials outside the measurement
//	benchtool advice RUN_DIR...      # an advise run's cost and pick; whether two runs' picks agree
//	benchtool rankcheck ADVISE_DIR CAPACITY_DIR  # the pick against a capacity run's best of the same space
//	benchtool rejudge RUN_DIR...     # recorded probes judged again by today's rule, and the rates that follow
//	benchtool resample [-precision P] [-max-rounds N] RUN_DIR...  # how often a stopping target decides each comparison, from its recorded rounds
//	benchtool studies bench/studies   # docs/studies.md from the built-in experiments and their kept runs
//	benchtool proxy -target HOST:PORT -rtt 100ms  # an emulated link in front of a broker, until SIGTERM (prints its address)
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/stats"
)

// timeout bounds every subcommand (a first Maven resolution downloads jars).
const timeout = 10 * time.Minute

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "benchtool:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) == 0 {
		return errors.New("usage: benchtool classpath GAV | create-topic [flags] TOPIC | delete-topic [flags] TOPIC | paired | gaps RESULTS.jsonl | components RESULTS.jsonl | advice RUN_DIR | rankcheck ADVISE_DIR CAPACITY_DIR | rejudge RUN_DIR | resample [-precision P] [-max-rounds N] RUN_DIR | lives [-k K] RUN_DIR | studies DIR | proxy -target HOST:PORT [-rtt D] (each takes several arguments)")
	}
	if args[0] == "proxy" { // serves until stopped: no subcommand timeout
		return proxy(args[1:], os.Stdout)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	switch args[0] {
	case "paired":
		return paired(os.Stdin, os.Stdout)
	case "gaps":
		return gaps(args[1:], os.Stdout)
	case "components":
		return components(args[1:], os.Stdout)
	case "gaps-all":
		return gapsAll(args[1:], os.Stdout)
	case "advice":
		return advice(args[1:], os.Stdout)
	case "rankcheck":
		return rankcheck(args[1:], os.Stdout)
	case "rejudge":
		return rejudge(args[1:], os.Stdout)
	case "resample":
		return resample(args[1:], os.Stdout)
	case "lives":
		return lives(args[1:], os.Stdout)
	case "studies":
		if len(args) != 2 {
			return errors.New("studies: give the directory of kept runs (bench/studies)")
		}
		return studies(args[1], os.Stdout)
	case "classpath":
		if len(args) < 2 {
			return errors.New("classpath: give group:artifact:version")
		}
		key := "bench-" + strings.NewReplacer(":", "-", ".", "_").Replace(strings.Join(args[1:], "+"))
		jars, err := maven.Resolve(ctx, key, args[1:]...)
		if err != nil {
			return err
		}
		fmt.Println(strings.Join(jars, string(os.PathListSeparator)))
		return nil
	case "create-topic", "delete-topic":
		fs := flag.NewFlagSet(args[0], flag.ContinueOnError)
		bootstrap := fs.String("bootstrap", "127.0.0.1:9092", "bootstrap servers")
		partitions := fs.Int("partitions", 1, "partitions of created topics")
		if err := fs.Parse(args[1:]); err != nil {
			return err
		}
		adm, err := cluster.NewAdmin(strings.Split(*bootstrap, ","))
		if err != nil {
			return err
		}
		defer adm.Close()
		for _, topic := range fs.Args() {
			if args[0] == "delete-topic" {
				err = adm.DeleteTopic(ctx, topic)
			} else {
				// Ready by prodlab's one rule (cluster.WaitTopicServed):
				// every leader serves its partitions, which an idempotent
				// Java producer (kafka-producer-perf-test) needs.
				err = adm.CreateTopic(ctx, topic, *partitions, 1, nil)
			}
			if err != nil {
				return err
			}
		}
		return nil
	default:
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
}

// paired reads pairs "A B" (one per line: the two sides' figures of one
// pair) and prints the geometric mean ratio A/B with its confidence
// interval at stats.DefaultConfidence (95 %), from prodlab's own paired
// test on the log ratios, as "RATIO LO HI".
func paired(r io.Reader, w io.Writer) error {
	var as, bs []float64
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		var a, b float64
		if _, err := fmt.Sscan(sc.Text(), &a, &b); err != nil {
			return fmt.Errorf("paired: line %q: %w", sc.Text(), err)
		}
		as, bs = append(as, a), append(bs, b)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("paired: %w", err)
	}
	// ComparePaired tests its second side against its first: B/A there is
	// A/B here.
	v := stats.ComparePaired(bs, as, stats.Options{Level: stats.DefaultConfidence, Margin: stats.DefaultMargin, Dir: stats.HigherIsBetter})
	if math.IsNaN(v.Lo) {
		return fmt.Errorf("paired: %s", v.Text)
	}
	_, err := fmt.Fprintf(w, "%.4f %.4f %.4f\n", 1+v.Diff, 1+v.Lo, 1+v.Hi)
	return err
}
