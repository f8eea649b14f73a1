package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/trogdor"
)

// trogdorLines decodes what ServeTrogdor wrote: each line a Trogdor status
// ({"status": worker line}) or error ({"error": …}) object.
func trogdorLines(t *testing.T, out string) (statuses []*workerMessage, errs []string) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		var obj struct {
			Status json.RawMessage `json:"status"`
			Error  *string         `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &obj); err != nil {
			t.Fatalf("line %q is not a Trogdor status object: %v", line, err)
		}
		switch {
		case obj.Error != nil:
			errs = append(errs, *obj.Error)
		case obj.Status != nil:
			m, err := decodeWorkerMessage(obj.Status)
			if err != nil {
				t.Fatalf("status %s: %v", obj.Status, err)
			}
			statuses = append(statuses, m)
		default:
			t.Fatalf("line %q has neither status nor error", line)
		}
	}
	return statuses, errs
}

// heldOpen is a reader that blocks until open is closed, then ends: a
// stdin the agent holds open.
type heldOpen chan struct{}

func (h heldOpen) Read([]byte) (int, error) {
	<-h
	return 0, io.EOF
}

// TestServeTrogdor: as an ExternalCommandSpec's command, the worker reads
// Trogdor's start line, runs its workload's trial, and writes each
// progress line and then the result as the task's status, the result with
// the process's CPU time; a trial that fails is a result with its error;
// a start line that is not one, or a workload that is not a run request,
// is the task's error; the end of stdin (the agent gone) cancels the trial.
func TestServeTrogdor(t *testing.T) {
	okRun := func(_ context.Context, tr Trial) (*Result, error) {
		tr.Progress(Progress{Sent: 5, Acked: 4, Elapsed: time.Millisecond})
		return &Result{Client: "fake 1", Sent: tr.Records, Acked: tr.Records, Latency: NewLatencyHistogram()}, nil
	}
	failRun := func(context.Context, Trial) (*Result, error) { return nil, errors.New("broker gone") }
	start := `{"id":"prodlab-t-1-x-agent-1","workload":{"op":"run","id":1,"bootstrap":"127.0.0.1:9092","topic":"t","records":10}}` + "\n"
	for _, tc := range []struct {
		name, in string
		run      func(context.Context, Trial) (*Result, error)
		wantErr  string // the task's error; "" for a result
		wantRes  string // the result's error; "" for ok
	}{
		{"a trial", start, okRun, "", ""},
		{"a failed trial", start, failRun, "", "broker gone"},
		{"not JSON", "hello\n", okRun, "the task's start line is not", ""},
		{"not a run request", `{"id":"x","workload":{"class":"org.apache.kafka.trogdor.workload.ProduceBenchSpec"}}` + "\n", okRun, "the task's workload is not a worker run request", ""},
		{"nothing", "", okRun, "read the task's start line: EOF", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			// The agent keeps stdin open while the command runs.
			open := make(chan struct{})
			defer close(open)
			in := io.MultiReader(strings.NewReader(tc.in), heldOpen(open))
			if tc.in == "" {
				in = strings.NewReader("")
			}
			err := WorkerService{Client: "fake 1", Run: tc.run}.ServeTrogdor(context.Background(), in, &out)
			statuses, errs := trogdorLines(t, out.String())
			if tc.wantErr != "" {
				if err == nil || len(errs) != 1 || !strings.Contains(errs[0], tc.wantErr) {
					t.Fatalf("err %v, task errors %q; want %q", err, errs, tc.wantErr)
				}
				return
			}
			if err != nil || len(errs) != 0 || len(statuses) == 0 {
				t.Fatalf("err %v, task errors %q, %d statuses", err, errs, len(statuses))
			}
			last := statuses[len(statuses)-1]
			if last.Op != "result" || last.CPUNs <= 0 {
				t.Fatalf("last status %+v: want the result with the process's CPU time", last)
			}
			if tc.wantRes == "" {
				if !last.OK || last.Acked != 10 || len(statuses) != 2 || statuses[0].Op != "progress" || statuses[0].Sent != 5 {
					t.Errorf("statuses %+v, %+v: want the progress line, then the result of 10 records", statuses[0], last)
				}
				return
			}
			if last.OK || !strings.Contains(last.Error, tc.wantRes) {
				t.Errorf("result %+v: want the trial's error %q", last, tc.wantRes)
			}
		})
	}

	// The end of stdin cancels a running trial, whose result still comes.
	pr, pw := io.Pipe()
	started := make(chan struct{})
	waitRun := func(ctx context.Context, _ Trial) (*Result, error) {
		close(started)
		<-ctx.Done()
		return nil, ctx.Err()
	}
	var out bytes.Buffer
	done := make(chan error, 1)
	go func() {
		done <- WorkerService{Client: "fake 1", Run: waitRun}.ServeTrogdor(context.Background(), pr, &out)
	}()
	if _, err := io.WriteString(pw, start); err != nil {
		t.Fatal(err)
	}
	<-started
	_ = pw.Close()
	select {
	case err := <-done:
		statuses, _ := trogdorLines(t, out.String())
		if err != nil || len(statuses) != 1 || statuses[0].OK || !strings.Contains(statuses[0].Error, "cancel") {
			t.Errorf("err %v, statuses %+v: want a cancelled result", err, statuses)
		}
	case <-time.After(time.Minute): // a hang guard: it takes milliseconds
		t.Fatal("the trial went on after stdin ended")
	}
}

// TestCombineTasks: the per-node tasks of an external client's trial read
// as one task: done only when every node's is, each node's status under
// its name (one node's own status for a single node), each node's error
// named.
func TestCombineTasks(t *testing.T) {
	a := trogdor.Task{State: "DONE", Status: json.RawMessage(`{"op":"result","id":1,"ok":true}`)}
	b := trogdor.Task{State: "RUNNING", Status: json.RawMessage(`{"op":"progress","id":1}`)}
	failed := trogdor.Task{State: "DONE", Error: "exited with return code 1"}
	got, err := combineTasks([]string{"x", "y"}, []trogdor.Task{a, b})
	if err != nil || got.Done() {
		t.Fatalf("%+v, %v: want running while y runs", got, err)
	}
	statuses, err := trogdor.NodeStatuses(got.Status, []string{"x", "y"})
	if err != nil || string(statuses["x"]) != string(a.Status) || string(statuses["y"]) != string(b.Status) {
		t.Errorf("statuses %s, %v", got.Status, err)
	}
	got, _ = combineTasks([]string{"x", "y"}, []trogdor.Task{a, failed})
	if !got.Done() || got.Error != "node y: exited with return code 1" {
		t.Errorf("%+v: want done, y's error named", got)
	}
	if s, _ := trogdor.NodeStatuses(got.Status, []string{"x", "y"}); len(s) != 1 {
		t.Errorf("statuses %v: a node without a status has none", s)
	}
	got, _ = combineTasks([]string{"x"}, []trogdor.Task{a})
	if string(got.Status) != string(a.Status) {
		t.Errorf("one node's status %s, want its own %s", got.Status, a.Status)
	}
	d := NewTrogdor(nil, []string{"x", "y"}, "4.3.1")
	if ids := d.taskIDs("t"); strings.Join(ids, ",") != "t" {
		t.Errorf("java task ids %v", ids)
	}
	if ids := d.ForClient("franz-go", nil).taskIDs("t"); strings.Join(ids, ",") != "t-x,t-y" {
		t.Errorf("external task ids %v", ids)
	}
}
