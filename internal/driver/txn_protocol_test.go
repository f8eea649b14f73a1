package driver

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// TestTxnResultRoundTrip: a transactional producer's record fates cross
// the worker protocol (a Go worker's resultMessage, the driver's toResult)
// as committed_ranges and aborted_ranges, and the log comes back
// transactional: acked only where the transaction committed.
func TestTxnResultRoundTrip(t *testing.T) {
	acks := NewAckLog(10)
	for seq := int64(0); seq < 10; seq++ {
		acks.Ack(seq)
	}
	acks.SetTransactional()
	acks.MarkTxn(0, 6, true)
	acks.MarkTxn(6, 10, false)
	res := &Result{
		Client: "franz-go test", Sent: 10, Acked: 10,
		Errors:    map[string]int64{},
		Latency:   latencies(t, 100, 200),
		Effective: map[string]string{"transactional.id": "x"},
		Metrics:   map[string]float64{},
		Acks:      acks,
	}

	m, err := resultMessage(1, res)
	if err != nil {
		t.Fatal(err)
	}
	line, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"committed_ranges":[[0,6]]`, `"aborted_ranges":[[6,10]]`} {
		if !strings.Contains(string(line), want) {
			t.Errorf("message lacks %s: %s", want, line)
		}
	}

	back, err := decodeWorkerMessage(line)
	if err != nil {
		t.Fatal(err)
	}
	got, err := back.toResult(Trial{Records: 10, Tag: "run1-s0-t0"})
	if err != nil {
		t.Fatal(err)
	}
	if got.Acks == nil {
		t.Fatal("no ack log for a tagged trial")
	}
	a := got.Acks
	if !a.Transactional() {
		t.Error("Transactional() = false after a round trip with transactional.id set")
	}
	for _, c := range []struct {
		seq            int64
		acked, aborted bool
	}{
		{0, true, false},
		{5, true, false}, // last record of the committed transaction
		{6, false, true}, // first of the aborted one
		{7, false, true},
		{9, false, true},
	} {
		if a.Acked(c.seq) != c.acked || a.Aborted(c.seq) != c.aborted {
			t.Errorf("seq %d: Acked %v Aborted %v, want %v %v", c.seq, a.Acked(c.seq), a.Aborted(c.seq), c.acked, c.aborted)
		}
	}
	gc, ga := a.TxnRanges()
	if !reflect.DeepEqual(gc, [][2]int64{{0, 6}}) || !reflect.DeepEqual(ga, [][2]int64{{6, 10}}) {
		t.Errorf("ranges after the round trip: committed %v aborted %v, want [[0 6]] [[6 10]]", gc, ga)
	}

	// Without a tag the ranges are not read: no ack log at all.
	if untagged, err := back.toResult(Trial{Records: 10}); err != nil || untagged.Acks != nil {
		t.Errorf("untagged: acks %v err %v, want no ack log", untagged.Acks, err)
	}
}

// TestTxnResultOpenTransaction: a transactional producer whose only
// transaction never ended reports no ranges; transactional.id alone makes
// its records undecided rather than acked.
func TestTxnResultOpenTransaction(t *testing.T) {
	line := `{"op":"result","id":1,"ok":true,"sent":4,"acked":4,"acked_ranges":[[0,4]],` +
		`"effective":{"transactional.id":"x"}}`
	m, err := decodeWorkerMessage([]byte(line))
	if err != nil {
		t.Fatal(err)
	}
	res, err := m.toResult(Trial{Records: 4, Tag: "x"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Acks.Transactional() || res.Acks.Acked(0) || res.Acks.Aborted(0) {
		t.Errorf("transactional %v acked(0) %v aborted(0) %v, want true false false",
			res.Acks.Transactional(), res.Acks.Acked(0), res.Acks.Aborted(0))
	}
}

// TestTxnResultRangesChecked: a result naming transaction ranges outside
// the records the worker tried is a protocol error naming the field.
func TestTxnResultRangesChecked(t *testing.T) {
	for _, c := range []struct {
		name, committed, aborted string
		wantErr                  string // "" for none
	}{
		{"in range", `[[0,6]]`, `[[6,10]]`, ""},
		{"whole trial", `[[0,10]]`, `[]`, ""},
		{"past the end", `[[0,11]]`, `[]`, "committed_ranges"},
		{"negative start", `[[-1,3]]`, `[]`, "committed_ranges"},
		{"reversed", `[[6,4]]`, `[]`, "committed_ranges"},
		{"far beyond", `[[20,30]]`, `[]`, "committed_ranges"},
		{"aborted past the end", `[[0,6]]`, `[[6,12]]`, "aborted_ranges"},
	} {
		t.Run(c.name, func(t *testing.T) {
			line := fmt.Sprintf(`{"op":"result","id":1,"ok":true,"sent":10,"acked":10,"acked_ranges":[[0,10]],`+
				`"effective":{"transactional.id":"x"},"committed_ranges":%s,"aborted_ranges":%s}`, c.committed, c.aborted)
			m, err := decodeWorkerMessage([]byte(line))
			if err != nil {
				t.Fatal(err)
			}
			_, err = m.toResult(Trial{Records: 10, Tag: "x"})
			switch {
			case c.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case c.wantErr != "" && err == nil:
				t.Errorf("accepted; want an error naming %s", c.wantErr)
			case c.wantErr != "" && (!strings.Contains(err.Error(), c.wantErr) || !strings.Contains(err.Error(), "outside [0,10)")):
				t.Errorf("error %q, want one naming %s and [0,10)", err, c.wantErr)
			}
		})
	}
}

// TestFencedResultRoundTrip: a fenced producer's result (ok=false,
// fenced) still carries its figures and record fates, and the driver
// returns them with ErrFenced; another failed result returns none.
func TestFencedResultRoundTrip(t *testing.T) {
	acks := NewAckLog(10)
	for seq := int64(0); seq < 4; seq++ {
		acks.Ack(seq)
	}
	acks.SetTransactional()
	acks.MarkTxn(0, 4, true)
	res := &Result{Client: "franz-go test", Sent: 10, Acked: 4, Errors: map[string]int64{},
		Latency: latencies(t, 100), Effective: map[string]string{"transactional.id": "x"}, Metrics: map[string]float64{}, Acks: acks}
	for _, fenced := range []bool{true, false} {
		m, err := resultMessage(1, res)
		if err != nil {
			t.Fatal(err)
		}
		m.OK, m.Fenced, m.Error = false, fenced, "abort transaction: PRODUCER_FENCED"
		line, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		back, err := decodeWorkerMessage(line)
		if err != nil {
			t.Fatal(err)
		}
		got, err := back.toResult(Trial{Records: 10, Tag: "run1-s0-r0"})
		if !fenced {
			if got != nil || err == nil || errors.Is(err, ErrFenced) {
				t.Errorf("a failed, unfenced result: %v, %v; want no figures and a plain error", got, err)
			}
			continue
		}
		if !errors.Is(err, ErrFenced) || got == nil || got.Acks == nil || !got.Acks.Acked(3) || !got.Acks.Undecided(5) {
			t.Errorf("fenced: result %v, error %v; want the figures (3 committed, 5 undecided) with ErrFenced", got, err)
		}
	}
}
