package audit

import (
	"sync"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/auditheader"
	"github.com/prodlab/prodlab/internal/bitset"
)

const testTag = "run1-s0-r0"

// testOutcome is an Outcome like the driver's AckLog: bitsets behind a
// mutex, so benchmarks pay the same price per lookup.
type testOutcome struct {
	mu            sync.Mutex
	acked, failed bitset.Set
	n             int64
}

func newTestOutcome(n int64) *testOutcome {
	return &testOutcome{acked: bitset.New(n), failed: bitset.New(n), n: n}
}

func (o *testOutcome) ack(seqs ...int64) *testOutcome {
	for _, s := range seqs {
		o.acked.Add(s)
	}
	return o
}

func (o *testOutcome) fail(seqs ...int64) *testOutcome {
	for _, s := range seqs {
		o.failed.Add(s)
	}
	return o
}

func (o *testOutcome) Acked(seq int64) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return seq >= 0 && seq < o.n && o.acked.Has(seq)
}

func (o *testOutcome) Failed(seq int64) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return seq >= 0 && seq < o.n && o.failed.Has(seq)
}

// span returns lo..hi-1.
func span(lo, hi int64) []int64 {
	s := make([]int64, 0, hi-lo)
	for i := lo; i < hi; i++ {
		s = append(s, i)
	}
	return s
}

// obs is one record read back: its partition and headers.
type obs struct {
	p int32
	h []kgo.RecordHeader
}

// own is a record of this run with seq in partition p.
func own(p int32, seq int64) obs { return tagged(p, testTag, seq) }

// tagged is a record with a well-formed header of any run.
func tagged(p int32, tag string, seq int64) obs {
	return obs{p, []kgo.RecordHeader{{Key: auditheader.Key, Value: auditheader.Append(nil, tag, seq)}}}
}

// raw is a record whose prodlab header value is v.
func raw(p int32, v string) obs {
	return obs{p, []kgo.RecordHeader{{Key: auditheader.Key, Value: []byte(v)}}}
}

// ownRun is this run's seqs, in order, in partition p.
func ownRun(p int32, seqs ...int64) []obs {
	out := make([]obs, len(seqs))
	for i, s := range seqs {
		out[i] = own(p, s)
	}
	return out
}

// feed observes records with consecutive offsets per partition.
func feed(c Observer, records []obs) {
	next := map[int32]int64{}
	for _, r := range records {
		c.Observe(r.p, next[r.p], r.h)
		next[r.p]++
	}
}

func cat(parts ...[]obs) []obs {
	var out []obs
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// txnOutcome is a transactional producer's outcome: acked means acked and
// committed; aborted seqs were in aborted transactions.
type txnOutcome struct {
	*testOutcome
	aborted map[int64]bool
}

func (o txnOutcome) Transactional() bool    { return true }
func (o txnOutcome) Aborted(seq int64) bool { return o.aborted[seq] }
func (o txnOutcome) Undecided(seq int64) bool {
	return !o.aborted[seq] && !o.Acked(seq) && seq >= 0 && seq < o.n
}
