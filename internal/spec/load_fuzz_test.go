package spec_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prodlab/prodlab/experiments"
	"github.com/prodlab/prodlab/internal/lab"
	"github.com/prodlab/prodlab/internal/spec"
)

// badInputDir holds the malformed experiment files of the CLI's bad-input
// table (internal/cli/badinput_test.go); they seed the fuzzer too.
const badInputDir = "../cli/testdata/badinput"

// fuzzSeedSets are --set arguments the seeds are also tried with, so the
// fuzzer mutates overrides as well as files.
var fuzzSeedSets = []string{"", "linger.ms=5", "workload.records=-1", "trials=auto", "matrix=x", "=", "producer.acks=2"}

// FuzzLoad feeds mutated experiment files (and one --set override) through
// what `prodlab run` does with them before anything starts: spec.Parse
// (spec.Load without the file read, so the fuzzer runs at full speed) and
// lab.Plan. Nothing may panic, and every refusal must be one a user can
// act on: a spec error naming its file (or --set) with a message, or a
// plan error with a message.
//
// Seeds: every built-in experiment, every bad file of the CLI's bad-input
// table, and a few hand-written edge cases. Run it with
//
//	go test -run '^$' -fuzz FuzzLoad -fuzztime 120s ./internal/spec
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
		exp, err := spec.Parse("fuzz.yaml", data, sets)
		if err != nil {
			checkSpecError(t, err)
			return
		}
		if _, err := lab.Plan(exp); err != nil && strings.TrimSpace(err.Error()) == "" {
			t.Fatalf("lab.Plan: an error without a message: %#v", err)
		}
	})
}

// checkSpecError fails unless err is a spec.Errors (or a single
// *spec.Error) whose every entry names its source and says something.
func checkSpecError(t *testing.T, err error) {
	t.Helper()
	var list spec.Errors
	var one *spec.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = spec.Errors{one}
	default:
		t.Fatalf("not a spec error: %T %v", err, err)
	}
	if len(list) == 0 {
		t.Fatalf("empty spec.Errors: %v", err)
	}
	for _, e := range list {
		if e == nil {
			t.Fatalf("nil entry in spec.Errors: %v", err)
		}
		if e.File == "" {
			t.Errorf("error without a source (file or --set): %q", e.Msg)
		}
		if strings.TrimSpace(e.Msg) == "" {
			t.Errorf("error without a message at %s:%d:%d", e.File, e.Line, e.Col)
		}
		if e.Line < 0 || e.Col < 0 {
			t.Errorf("negative position %d:%d: %s", e.Line, e.Col, e.Msg)
		}
		if !utf8.ValidString(e.Msg) && utf8.ValidString(e.File) {
			// A message quoting invalid input must quote it escaped (%q),
			// or a terminal shows garbage.
			t.Errorf("message is not valid UTF-8: %q", e.Msg)
		}
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
