// Command benchtool is bench/run.sh's helper: it resolves Java artifacts
// into prodlab's Maven cache (so kafka-producer-perf-test runs from the same
// jars prodlab uses) and creates or deletes topics, so that every measured
// run writes to a fresh topic and the bench does not fill the disk.
//
//	benchtool classpath org.apache.kafka:kafka-tools:4.3.0   # prints a class path
//	benchtool create-topic -bootstrap B -partitions 1 TOPIC...
//	benchtool delete-topic -bootstrap B TOPIC...
//	benchtool paired < PAIRS     # "A B" per line → geometric mean A/B and its 99.9 % CI
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

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

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
		return errors.New("usage: benchtool classpath GAV... | create-topic [flags] TOPIC... | delete-topic [flags] TOPIC | paired")
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	switch args[0] {
	case "paired":
		return paired(os.Stdin, os.Stdout)
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
		cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(*bootstrap, ",")...))
		if err != nil {
			return err
		}
		defer cl.Close()
		adm := kadm.NewClient(cl)
		if args[0] == "delete-topic" {
			resps, err := adm.DeleteTopics(ctx, fs.Args()...)
			if err != nil {
				return fmt.Errorf("delete topics: %w", err)
			}
			return resps.Error()
		}
		resps, err := adm.CreateTopics(ctx, int32(*partitions), 1, nil, fs.Args()...)
		if err != nil {
			return fmt.Errorf("create topics: %w", err)
		}
		if err := resps.Error(); err != nil {
			return fmt.Errorf("create topics: %w", err)
		}
		return waitLeaders(ctx, adm, fs.Args())
	default:
		return fmt.Errorf("unknown subcommand %q", args[0])
	}
}

// waitLeaders waits until every partition of the topics has a leader.
func waitLeaders(ctx context.Context, adm *kadm.Client, topics []string) error {
	for {
		md, err := adm.Metadata(ctx, topics...)
		if err == nil && ready(md, topics) {
			return nil
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("topics %v have no leaders: %w", topics, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func ready(md kadm.Metadata, topics []string) bool {
	for _, t := range topics {
		td, ok := md.Topics[t]
		if !ok || td.Err != nil || len(td.Partitions) == 0 {
			return false
		}
		for _, p := range td.Partitions {
			if p.Err != nil || p.Leader < 0 {
				return false
			}
		}
	}
	return true
}

// paired reads pairs "A B" (one per line: the two sides' figures of one
// pair) and prints the geometric mean ratio A/B with its 99.9 % confidence
// interval, from prodlab's own paired test on the log ratios, as
// "RATIO LO HI".
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
	v := stats.ComparePaired(bs, as, stats.DefaultConfidence, stats.HigherIsBetter)
	if math.IsNaN(v.Lo) {
		return fmt.Errorf("paired: %s", v.Text)
	}
	_, err := fmt.Fprintf(w, "%.4f %.4f %.4f\n", 1+v.Diff, 1+v.Lo, 1+v.Hi)
	return err
}
