package expfile_test

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prodlab/prodlab/experiments"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/lab"
)

// badInputDir holds the malformed experiment files of the CLI's bad-input
// table (internal/cli/badinput_test.go); they seed the fuzzer too.
const badInputDir = "../cli/testdata/badinput"

// fuzzSeedSets are --set arguments the seeds are also tried with, so the
// fuzzer mutates overrides as well as files.
var fuzzSeedSets = []string{"", "linger.ms=5", "workload.records=-1", "trials=auto", "matrix=x", "=", "producer.acks=2"}

// FuzzLoad feeds mutated experiment files (and one --set override) through
// what `prodlab run` does with them before anything starts: expfile.Parse
// (expfile.Load without the file read, so the fuzzer runs at full speed) and
// lab.Plan. Nothing may panic, and every refusal must be one a user can
// act on: an expfile error naming its file (or --set) with a message, or a
// plan error with a message.
//
// Seeds: every built-in experiment, every bad file of the CLI's bad-input
// table, and a few hand-written edge cases. Run it with
//
//	go test -run '^$' -fuzz FuzzLoad -fuzztime 120s ./internal/expfile
func FuzzLoad(f *testing.F) {
	for _, seed := range fuzzSeeds(f) {
		for _, set := range fuzzSeedSets {
			f.Add(seed, set)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		var sets []string
		if set != "" {
			sets = []string{set}
		}
		exp, err := expfile.Parse("fuzz.yaml", data, sets)
		if err != nil {
			if problem := specErrorProblem(err); problem != "" {
				t.Fatal(problem)
			}
			return
		}
		if _, err := lab.Plan(exp); err != nil && strings.TrimSpace(err.Error()) == "" {
			t.Fatalf("lab.Plan: an error without a message: %#v", err)
		}
	})
}

// specErrorProblem says what is wrong with err as a refusal of an
// experiment, or "" when nothing is: it must be an expfile.Errors (or a single
// *expfile.Error) whose every entry names its source (file or --set) and
// says something, in valid UTF-8 (a message quoting invalid input must
// quote it escaped, or a terminal shows garbage).
func specErrorProblem(err error) string {
	var list expfile.Errors
	var one *expfile.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = expfile.Errors{one}
	default:
		return fmt.Sprintf("not an expfile error: %T %v", err, err)
	}
	if len(list) == 0 {
		return "empty expfile.Errors"
	}
	for _, e := range list {
		switch {
		case e == nil:
			return "nil entry in expfile.Errors"
		case e.File == "":
			return fmt.Sprintf("error without a source (file or --set): %q", e.Msg)
		case strings.TrimSpace(e.Msg) == "":
			return fmt.Sprintf("error without a message at %s:%d:%d", e.File, e.Line, e.Col)
		case e.Line < 0 || e.Col < 0:
			return fmt.Sprintf("negative position %d:%d: %s", e.Line, e.Col, e.Msg)
		case !utf8.ValidString(e.Msg):
			return fmt.Sprintf("message is not valid UTF-8: %q", e.Msg)
		}
	}
	return ""
}

// TestSpecErrorProblem shows FuzzLoad's check can fail.
func TestSpecErrorProblem(t *testing.T) {
	tests := []struct {
		name string
		err  error
		bad  bool
	}{
		// a located message passes
		{"located", expfile.Errors{{File: "x.yaml", Line: 3, Col: 2, Msg: "acks must be one of 0, 1, -1, all"}}, false},
		// a --set's message passes without a position
		{"from --set", &expfile.Error{File: "--set acks=2", Msg: "acks must be one of 0, 1, -1, all"}, false},
		// anything else is a finding
		{"plain error", errors.New("boom"), true},
		{"empty list", expfile.Errors{}, true},
		{"no source", expfile.Errors{{Msg: "bad"}}, true},
		{"no message", expfile.Errors{{File: "x.yaml", Line: 1}}, true},
		{"negative line", expfile.Errors{{File: "x.yaml", Line: -1, Msg: "bad"}}, true},
		{"invalid UTF-8", expfile.Errors{{File: "x.yaml", Msg: "bad \xff"}}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := specErrorProblem(tt.err); (got != "") != tt.bad {
				t.Errorf("specErrorProblem(%v) = %q, want a problem: %v", tt.err, got, tt.bad)
			}
		})
	}
}

// fuzzSeeds returns the seed files: the built-ins, the bad-input table's
// files and hand-written edge cases.
func fuzzSeeds(f *testing.F) [][]byte {
	f.Helper()
	var seeds [][]byte
	builtins, err := fs.Glob(experiments.FS, "*.yaml")
	if err != nil || len(builtins) == 0 {
		f.Fatalf("no built-in experiments: %v", err)
	}
	for _, name := range builtins {
		data, err := fs.ReadFile(experiments.FS, name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	bad, _ := filepath.Glob(filepath.Join(badInputDir, "*.yaml"))
	for _, name := range bad {
		data, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, data)
	}
	for _, s := range []string{
		"", "name: x\n", "name: [\n", "- a\n- b\n", "name: x\n---\nname: y\n",
		"name: x\nmatrix: {linger.ms: []}\n",
		"name: x\nmatrix: {linger.ms: [0, 5], acks: [all, 1]}\ncompare: [{a: {linger.ms: 0}, b: {linger.ms: 5}}]\n",
		"name: x\nfaults: [{type: broker.kill, at.s: 1, broker: 1}]\n",
		"name: &a x\ndescription: *a\n",
		"name: x\nworkload: {records: 1e400}\n",
		"name: \xff\xfe\n",
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}
