package expfile

import (
	"io/fs"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/experiments"
)

// TestBuiltins checks that every embedded experiment parses, validates and
// expands, and that its name matches its file name (what `prodlab run NAME`
// looks up).
func TestBuiltins(t *testing.T) {
	files, err := fs.Glob(experiments.FS, "*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no built-in experiments: %v", err)
	}
	for _, f := range files {
		t.Run(f, func(t *testing.T) {
			data, err := fs.ReadFile(experiments.FS, f)
			if err != nil {
				t.Fatal(err)
			}
			e, err := Parse(f, data, nil)
			if err != nil {
				t.Fatalf("Parse:\n%v", err)
			}
			if want := strings.TrimSuffix(f, ".yaml"); e.Name != want {
				t.Errorf("name %q, want %q (the file name)", e.Name, want)
			}
			if e.Description == "" {
				t.Error("no description")
			}
			if _, err := e.Scenarios(); err != nil {
				t.Errorf("Scenarios: %v", err)
			}
			// The README's advice, --set trials=5 --set warmup=1, works on
			// every built-in study; a capacity search or an advisor
			// decides its own probes and ignores trials, saying so.
			e5, err := Parse(f, data, []string{"trials=5", "warmup=1"})
			if err != nil {
				t.Fatalf("--set trials=5 --set warmup=1:\n%v", err)
			}
			if e.Capacity.On || e.Advise.On {
				if !strings.Contains(strings.Join(e5.Notes, "\n"), "--set trials=5 is ignored") {
					t.Errorf("--set trials=5 on a search: notes %q, want one saying it is ignored", e5.Notes)
				}
			} else if e5.Trials != 5 {
				t.Errorf("--set trials=5: %d trials", e5.Trials)
			}
		})
	}
	bs, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	if len(bs) != len(files) {
		t.Errorf("Builtins() has %d entries, want %d", len(bs), len(files))
	}
	for i := 1; i < len(bs); i++ {
		if bs[i-1].Name >= bs[i].Name {
			t.Errorf("Builtins() not sorted: %q before %q", bs[i-1].Name, bs[i].Name)
		}
	}
}

// TestBatching pins the shape of the batching experiment others rely on:
// it uses prodlab's max.buffered.records and the Java buffer.memory.
func TestBatching(t *testing.T) {
	e, err := Load("batching", nil)
	if err != nil {
		t.Fatal(err)
	}
	if e.Producer[MaxBufferedRecords] == "" || e.Producer["buffer.memory"] == "" {
		t.Errorf("producer = %v, want max.buffered.records and buffer.memory", e.Producer)
	}
	ss, err := e.Scenarios()
	if err != nil {
		t.Fatal(err)
	}
	if len(ss) != 9 || ss[0].ID != "linger.ms=0,compression.type=none" || ss[8].ID != "linger.ms=50,compression.type=zstd" {
		t.Errorf("got %d scenarios, first %q", len(ss), ss[0].ID)
	}
}
