package results

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/golden"
)

// sample is a fully populated record, so that the golden file pins every
// field name of the schema-1 contract.
func sample() Record {
	return Record{
		Run:          "20250102-030405-batching",
		Experiment:   "batching",
		Scenario:     map[string]any{"linger.ms": float64(5), "compression.type": "zstd"},
		ScenarioKeys: []string{"linger.ms", "compression.type"},
		ScenarioID:   "linger.ms=5,compression.type=zstd",
		Trial:        1,
		Status:       StatusOK,
		Client:       "franz-go v1.22.2",
		Kafka:        "4.3.0",
		Topic:        "prodlab-batching-3",
		RecordSize:   1024,
		Records:      Records{Sent: 100000, Acked: 100000},
		ElapsedS:     1.9,
		Throughput:   Throughput{RecordsPerS: 52631.6, MBPerS: 51.4},
		LatencyMs:    Latency{P50: 10.1, P95: 40.2, P99: 60.3, P999: 80.4, Max: 345, Mean: 12.3},
		DiskBytes:    24536678, UncompressedBytes: 104857600, CompressedBytes: 24117248, CompressionRatio: 4.35,
		Batches: 1200, RecordsPerBatch: 83.3, ProduceRequests: 400,
		EffectiveConfig: map[string]string{"acks": "all", "linger.ms": "5"},
		ClientMetrics:   map[string]float64{"batch-size-avg": 20097},
		Network:         map[string]float64{"requests": 400},
		Audit:           &Audit{Acked: 100000},
		Histogram:       "HISTFAAAA",
		StartedAt:       "2025-01-02T03:04:05Z",
	}
}

func TestNewRunDir(t *testing.T) {
	base := filepath.Join(t.TempDir(), "runs") // created on demand
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	var got []string
	for range 3 {
		dir, err := NewRunDir(base, "batching", now)
		if err != nil {
			t.Fatal(err)
		}
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			t.Fatalf("%s was not created: %v", dir, err)
		}
		got = append(got, filepath.Base(dir))
	}
	want := []string{"20250102-030405-batching", "20250102-030405-batching-2", "20250102-030405-batching-3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("run dirs = %q, want %q", got, want)
	}
}

func TestNewRunDirBadName(t *testing.T) {
	for _, name := range []string{
		"",    // nothing to name the run by
		"a/b", // would create a nested directory
		"..",  // would escape base
		`a\b`, // a separator on Windows
	} {
		if _, err := NewRunDir(t.TempDir(), name, time.Now()); err == nil {
			t.Errorf("NewRunDir(%q) succeeded, want an error", name)
		}
	}
}

func TestBrokerLog(t *testing.T) {
	if got := BrokerLog(2); got != "broker-2.log" {
		t.Errorf("BrokerLog(2) = %q", got)
	}
}

// TestGoldenLine pins the JSON encoding of a record: field names and order
// are the schema-1 contract.
func TestGoldenLine(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(sample()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, ResultsFile))
	if err != nil {
		t.Fatal(err)
	}
	golden.Check(t, "record.golden.jsonl", got)
}

func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, b := sample(), sample()
	b.Trial, b.Status, b.Error = 2, StatusFailed, "boom"
	for _, r := range []Record{a, b} {
		if err := w.Append(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Append(a); err == nil {
		t.Error("Append after Close succeeded")
	}
	// Appending again opens the same file and adds to it.
	w, err = Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(a); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	a.Schema, b.Schema = Schema, Schema
	want := []Record{a, b, a}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", got, want)
	}
}

func TestReadFile(t *testing.T) {
	line := `{"schema":1,"scenario_id":"x","trial":%d}`
	rec := func(trial int) string { return strings.Replace(line, "%d", string(rune('0'+trial)), 1) }
	tests := []struct {
		name    string
		content string
		trials  []int  // trials of the records read
		err     string // substring of the error; "" for none
	}{
		// The ordinary case.
		{"two lines", rec(0) + "\n" + rec(1) + "\n", []int{0, 1}, ""},
		// A crash mid-write leaves half a line: skipped silently.
		{"torn last line", rec(0) + "\n" + rec(1)[:10], []int{0}, ""},
		// A last line that is complete but lost its newline still counts.
		{"unterminated last line", rec(0) + "\n" + rec(1), []int{0, 1}, ""},
		// Corruption before the last line is an error naming the line.
		{"corrupt middle line", rec(0) + "\n{oops\n" + rec(2) + "\n", nil, "line 2"},
		// A torn line followed by more lines is not a crash trace.
		{"torn then more", rec(0)[:10] + "\n" + rec(1) + "\n", nil, "line 1"},
		// Blank lines carry nothing and are ignored.
		{"blank lines", "\n" + rec(0) + "\n\n", []int{0}, ""},
		// A newer schema version is refused rather than misread.
		{"other schema", `{"schema":3}` + "\n", nil, "line 1 (12 bytes): schema 3"},
		// A fragment with a whole record glued on (an older prodlab after a
		// full disk) is an error here, though ReadFileAll keeps the record.
		{"glued fragment", rec(0) + "\n" + rec(1)[:10] + rec(2) + "\n", nil, "line 2 (10 bytes): the fragment"},
		// An empty file is an empty run.
		{"empty", "", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ResultsFile)
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := ReadFile(path)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error = %v, want it to contain %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var trials []int
			for _, r := range got {
				trials = append(trials, r.Trial)
			}
			if !reflect.DeepEqual(trials, tt.trials) {
				t.Errorf("trials = %v, want %v", trials, tt.trials)
			}
		})
	}
}

// TestReadFileAll: the lenient reader keeps every complete, valid record
// around bad lines and reports each line it left out, with its number,
// length and reason.
func TestReadFileAll(t *testing.T) {
	rec := func(trial int) string { return fmt.Sprintf(`{"schema":1,"scenario_id":"x","trial":%d}`, trial) }
	tests := []struct {
		name    string
		content string
		trials  []int     // trials of the records read
		skipped []Skipped // Reason holds a substring of the reason
	}{
		// A whole file: nothing skipped.
		{"two lines", rec(0) + "\n" + rec(1) + "\n", []int{0, 1}, nil},
		// A corrupt middle line costs that line only.
		{"corrupt middle line", rec(0) + "\n{oops\n" + rec(2) + "\n", []int{0, 2},
			[]Skipped{{Line: 2, Bytes: 5, Reason: "invalid JSON: invalid character 'o'"}}},
		// The file: a fragment cut by a full disk, the next record
		// appended onto it. The record is kept, the fragment reported.
		{"glued fragment", rec(0) + "\n" + rec(1)[:10] + rec(2) + "\n" + rec(3) + "\n", []int{0, 2, 3},
			[]Skipped{{Line: 2, Bytes: 10, Reason: "the fragment of a write cut short"}}},
		// Two failed appends before one that went through.
		{"two fragments", rec(1)[:7] + rec(1)[:12] + rec(2) + "\n", []int{2},
			[]Skipped{{Line: 1, Bytes: 19, Reason: "the fragment"}}},
		// A torn last line is reported as torn.
		{"torn last line", rec(0) + "\n" + rec(1)[:10], []int{0},
			[]Skipped{{Line: 2, Bytes: 10, Reason: "torn last line", Torn: true}}},
		// A complete last line without its newline is kept.
		{"unterminated last line", rec(0) + "\n" + rec(1), []int{0, 1}, nil},
		// A torn line followed by more lines is a corrupt line, not torn.
		{"torn then more", rec(0)[:10] + "\n" + rec(1) + "\n", []int{1},
			[]Skipped{{Line: 1, Bytes: 10, Reason: "invalid JSON: unexpected end"}}},
		// A record of an unknown schema is skipped, not misread.
		{"other schema", rec(0) + "\n" + `{"schema":3,"trial":1}` + "\n" + rec(2) + "\n", []int{0, 2},
			[]Skipped{{Line: 2, Bytes: 22, Reason: "schema 3, this prodlab reads schemas 1 to 2", Schema: 3}}},
		// Valid JSON that is not a record.
		{"not a record", `[1,2]` + "\n" + rec(1) + "\n", []int{1},
			[]Skipped{{Line: 1, Bytes: 5, Reason: "not a record: json: cannot unmarshal array"}}},
		// A line that only looks like two records glued is not salvaged
		// unless its tail is a whole record.
		{"fragment then fragment", rec(0) + "\n" + rec(1)[:10] + rec(2)[:12] + "\n", []int{0},
			[]Skipped{{Line: 2, Bytes: 22, Reason: "invalid JSON"}}},
		// Blank lines carry nothing: ignored, not reported.
		{"blank lines", "\n" + rec(0) + "\n\n", []int{0}, nil},
		// An empty file is an empty run.
		{"empty", "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), ResultsFile)
			if err := os.WriteFile(path, []byte(tt.content), 0o644); err != nil {
				t.Fatal(err)
			}
			got, skipped, err := ReadFileAll(path)
			if err != nil {
				t.Fatal(err)
			}
			if trials := trialsOf(got); !reflect.DeepEqual(trials, tt.trials) {
				t.Errorf("trials = %v, want %v", trials, tt.trials)
			}
			checkSkipped(t, skipped, tt.skipped)
		})
	}
}

// trialsOf lists the trial numbers of recs.
func trialsOf(recs []Record) []int {
	var trials []int
	for _, r := range recs {
		trials = append(trials, r.Trial)
	}
	return trials
}

// checkSkipped compares what was skipped with want, whose Reasons are
// substrings of the reasons expected.
func checkSkipped(t *testing.T, got, want []Skipped) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("skipped %+v, want %+v", got, want)
	}
	for i, w := range want {
		g := got[i]
		if g.Line != w.Line || g.Bytes != w.Bytes || g.Torn != w.Torn || !strings.Contains(g.Reason, w.Reason) {
			t.Errorf("skipped[%d] = %+v, want %+v (reason containing %q)", i, g, w, w.Reason)
		}
	}
}

// TestSkippedString: the warning callers print names line, size (with
// thousands separators) and reason.
func TestSkippedString(t *testing.T) {
	tests := []struct {
		s    Skipped
		want string
	}{
		{Skipped{Line: 2, Bytes: 2174, Reason: "invalid JSON: x"}, "line 2 (2,174 bytes): invalid JSON: x"},
		{Skipped{Line: 10, Bytes: 5, Reason: "r", Torn: true}, "line 10 (5 bytes): r"},
	}
	for _, tt := range tests {
		if got := tt.s.String(); got != tt.want {
			t.Errorf("String() = %q, want %q", got, tt.want)
		}
	}
}

// TestReadAllMissing: a file that cannot be read is the only error.
func TestReadAllMissing(t *testing.T) {
	if _, _, err := ReadAll(t.TempDir()); err == nil || !strings.Contains(err.Error(), ResultsFile) {
		t.Fatalf("error = %v, want one naming %s", err, ResultsFile)
	}
}

func TestReadMissing(t *testing.T) {
	if _, err := Read(t.TempDir()); err == nil || !strings.Contains(err.Error(), ResultsFile) {
		t.Fatalf("error = %v, want one naming %s", err, ResultsFile)
	}
}

// TestCreateRepairsTail checks that resuming after a crash leaves a file
// Read accepts, keeping every complete record.
func TestCreateRepairsTail(t *testing.T) {
	full := `{"schema":1,"trial":0}` + "\n"
	tests := []struct {
		name   string
		before string
		trials []int // after appending trial 9
	}{
		// Half a line is cut off before appending.
		{"torn", full + `{"schema":1,"tri`, []int{0, 9}},
		// A complete record missing its newline is kept.
		{"unterminated", full + `{"schema":1,"trial":1}`, []int{0, 1, 9}},
		// A file that is nothing but a fragment becomes empty.
		{"only fragment", `{"sch`, []int{9}},
		// A healthy file is left alone.
		{"healthy", full, []int{0, 9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, ResultsFile), []byte(tt.before), 0o644); err != nil {
				t.Fatal(err)
			}
			if trials := appendNine(t, dir); !reflect.DeepEqual(trials, tt.trials) {
				t.Errorf("trials = %v, want %v", trials, tt.trials)
			}
		})
	}
}

// appendNine opens the run in dir for appending (which repairs a torn
// tail), appends trial 9 and returns the trials the file then holds.
func appendNine(t *testing.T, dir string) []int {
	t.Helper()
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(Record{Trial: 9}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	got, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	var trials []int
	for _, r := range got {
		trials = append(trials, r.Trial)
	}
	return trials
}

// TestCreateRepairsLongTail checks the torn-tail repair past one read of
// the scan: records with timelines and histograms exceed 64 KiB, and so can
// the fragment a crash leaves. Every whole record before the torn tail must
// survive, whatever the lengths of the records and of the tail.
func TestCreateRepairsLongTail(t *testing.T) {
	big := func(trial, n int) string {
		return fmt.Sprintf(`{"schema":1,"trial":%d,"histogram":"%s"}`, trial, strings.Repeat("A", n)) + "\n"
	}
	torn := `{"schema":1,"trial":7,"histogram":"` + strings.Repeat("B", 100<<10)
	tests := []struct {
		name   string
		before string
		trials []int // after appending trial 9
	}{
		{"small records, 100 KiB torn tail", big(0, 10) + big(1, 10) + big(2, 10) + torn, []int{0, 1, 2, 9}},
		{"100 KiB records, 100 KiB torn tail", big(0, 100<<10) + big(1, 100<<10) + big(2, 100<<10) + torn, []int{0, 1, 2, 9}},
		{"100 KiB records, short torn tail", big(0, 100<<10) + big(1, 100<<10) + `{"sch`, []int{0, 1, 9}},
		{"only a 100 KiB fragment", torn, []int{9}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, ResultsFile), []byte(tt.before), 0o644); err != nil {
				t.Fatal(err)
			}
			// The reader keeps the whole records and reports the tail as torn.
			recs, skipped, err := ReadAll(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(recs) != len(tt.trials)-1 || len(skipped) != 1 || !skipped[0].Torn {
				t.Fatalf("ReadAll before repair: %d records, skipped %v; want %d records and one torn line", len(recs), skipped, len(tt.trials)-1)
			}
			if trials := appendNine(t, dir); !reflect.DeepEqual(trials, tt.trials) {
				t.Errorf("trials = %v, want %v", trials, tt.trials)
			}
		})
	}
}

// shortFile fails its first write after writing half of it, as a full disk
// does, then behaves like the file underneath.
type shortFile struct {
	*os.File
	failed bool
}

func (f *shortFile) Write(p []byte) (int, error) {
	if !f.failed {
		f.failed = true
		n, _ := f.File.Write(p[:len(p)/2])
		return n, syscall.ENOSPC
	}
	return f.File.Write(p)
}

// TestAppendShortWrite: a record cut by a full disk is removed again, so
// the file holds whole records only and the next one starts on its own
// line. Without the cut-back the second record would be glued to the
// fragment and the file's middle line would not parse.
func TestAppendShortWrite(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Append(Record{ScenarioID: "a", Trial: 0, Status: StatusOK}); err != nil {
		t.Fatal(err)
	}
	w.f = &shortFile{File: w.f.(*os.File)}
	if err := w.Append(Record{ScenarioID: "a", Trial: 1, Status: StatusOK}); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("append on a full disk: %v, want ENOSPC", err)
	}
	if err := w.Append(Record{ScenarioID: "a", Trial: 2, Status: StatusOK}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	recs, err := Read(dir)
	if err != nil {
		t.Fatalf("read after a short write: %v", err)
	}
	if len(recs) != 2 || recs[0].Trial != 0 || recs[1].Trial != 2 {
		t.Errorf("records %+v, want trials 0 and 2", recs)
	}
}
