// Package cli holds prodlab's cobra commands, flag parsing and exit codes.
// Commands are thin: they turn flags into app requests, render the
// answers (through report), and map errors to exit codes (0 ok, 1 run
// failure, 2 usage or input error, 3 delivery violated).
package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/app"
	"github.com/prodlab/prodlab/internal/proc"
	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// Version is set at build time with -ldflags "-X .../cli.Version=...".
var Version = "dev"

// Exit codes.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
	// ExitViolated: an audit found lost, duplicated, reordered or phantom
	// records the experiment did not declare expected (expect:).
	ExitViolated = 3
)

// usageError marks errors caused by the user's input (exit code 2).
type usageError struct{ err error }

func (u usageError) Error() string { return u.err.Error() }
func (u usageError) Unwrap() error { return u.err }

func usage(err error) error { return usageError{err} }

// Main runs the CLI and returns the process exit code. Every child process
// is killed before it returns, even on panic.
func Main(args []string) (code int) {
	return run(args, os.Stdout, os.Stderr)
}

func run(args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if p := recover(); p != nil {
			proc.KillAll()
			panic(p)
		}
	}()
	defer proc.KillAll()
	// Every secret the inputs hold is remembered once they are read
	// (app); nothing printed carries one, whatever text quotes it.
	stdout, stderr = secret.Writer(stdout), secret.Writer(stderr)
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return ExitOK
	}
	fmt.Fprintln(stderr, "prodlab:", err)
	return exitCode(err)
}

// exitCode maps a command's error to the process exit code.
func exitCode(err error) int {
	var u usageError
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &u), app.IsInput(err):
		return ExitUsage
	case errors.Is(err, app.ErrViolated):
		return ExitViolated
	case errors.Is(err, errRegression):
		return ExitRegression
	}
	return ExitFailure
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "prodlab",
		Short: "A lab for Apache Kafka producers: what does a setting cost, and is the data still safe?",
		Long: `prodlab runs a matrix of Kafka producer settings against a real Apache Kafka
cluster (embedded KRaft brokers on 127.0.0.1, or your own with --bootstrap),
repeats rounds until the experiment's questions are decided, and answers each:
faster / slower by X % [lo, hi], equivalent within ±m %, or inconclusive (with
the rounds it would still need). Beside the answers: throughput, latency
percentiles, timelines, CPU per MB, bytes on disk and compression ratio.

Settings use the Java producer's property names (linger.ms, batch.size, acks...).`,
		Example: `  prodlab run batching                       # the built-in linger × compression study
  prodlab run batching --set workload.records=10000 --set linger.ms=5
  prodlab run my-experiment.yaml --out results/today
  prodlab experiments                        # list built-in experiments
  prodlab report results/20261122-190000-batching          # the table and Findings again
  prodlab report results/20261122-190000-batching --html   # also regenerate report.html
  prodlab compare results/20261122-190000-batching --scenarios linger.ms=0,compression.type=none linger.ms=5,compression.type=none`,
		SilenceUsage:  true,
		SilenceErrors: true,
		Version:       Version,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newRunCmd(), newAdviseCmd(), newExperimentsCmd(), newReportCmd(), newClusterCmd(), newCompareCmd(), newPerfCmd())
	root.AddCommand(newTrogdorCmd(), newWorkerCmd(), newHistoryCmd())
	requireSubcommand(root)
	return root
}

// flagError makes a flag cobra cannot parse a usage error (exit 2),
// its message showing at most an excerpt of the value (pflag quotes the
// value whole: 14 KB of binary from a fuzzed --num-records).
func flagError(c *cobra.Command, err error) error {
	return usage(fmt.Errorf("%s\nrun '%s --help' for usage", shownMessage(err.Error()), c.CommandPath()))
}

// quotedRE matches the quoted values in a pflag message.
var quotedRE = regexp.MustCompile(`"[^"]*"`)

// shownMessage is msg with each quoted value shown as textfmt.Shown shows
// it (cut and escaped when long or unprintable), and the whole message
// excerpted when that is not enough.
func shownMessage(msg string) string {
	msg = quotedRE.ReplaceAllStringFunc(msg, func(q string) string {
		inner := q[1 : len(q)-1]
		if s := textfmt.Shown(inner); s != inner {
			return s
		}
		return q
	})
	if len(msg) > 1000 || strings.ContainsFunc(msg, func(r rune) bool { return r < ' ' || r == utf8.RuneError }) {
		return textfmt.Excerpt(msg)
	}
	return msg
}

// requireSubcommand makes a command that only groups others print its help
// when called alone, and refuse an unknown subcommand as a usage error
// (exit 2) with the closest one, where cobra would exit 1.
func requireSubcommand(c *cobra.Command) {
	c.SuggestionsMinimumDistance = 2
	c.Args = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		hint := ""
		if s := c.SuggestionsFor(args[0]); len(s) > 0 {
			hint = fmt.Sprintf("; did you mean %q?", s[0])
		}
		return usage(fmt.Errorf("unknown command %q for %q%s\nrun '%s --help' for usage", args[0], c.CommandPath(), hint, c.CommandPath()))
	}
	c.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
}

// exactArgs is cobra.ExactArgs with a usage (exit 2) error.
func argsUsage(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(c *cobra.Command, args []string) error {
		if err := v(c, args); err != nil {
			return usage(fmt.Errorf("%w\nrun '%s --help' for usage", err, c.CommandPath()))
		}
		return nil
	}
}
