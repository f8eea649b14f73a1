package driver

import "sync"

// recycleBatch is how many records the reporting side gathers before it
// hands them back under the lock.
const recycleBatch = 256

// recycler hands records back from the goroutine that reports them done to
// the one that builds them, in batches: each side keeps a slice of its own
// and the two meet under a lock once every recycleBatch records, where a
// sync.Pool cost a Get and a Put per record (4 % of a profile of the
// franz-go driver) and dropped its records at every collection. It needs
// each side to run on one goroutine at a time: the send loop builds, and
// a client reports completions serially (kgo calls every promise
// serially; the librdkafka run reads its delivery reports on one
// goroutine). The records in flight plus two batches are all it holds.
type recycler[T any] struct {
	mu     sync.Mutex
	shared []*T // handed back and not yet taken, under mu
	own    []*T // the building side's
	back   []*T // the reporting side's, until a batch is full
}

// take is a record for the building side: one handed back, or a new one.
func (r *recycler[T]) take() *T {
	if len(r.own) == 0 {
		r.mu.Lock()
		r.own, r.shared = r.shared, r.own
		r.mu.Unlock()
		if len(r.own) == 0 {
			return new(T)
		}
	}
	x := r.own[len(r.own)-1]
	r.own = r.own[:len(r.own)-1]
	return x
}

// keep returns a record the building side took and did not hand over.
func (r *recycler[T]) keep(x *T) { r.own = append(r.own, x) }

// give returns a record the client reported done; only the reporting
// side calls it.
func (r *recycler[T]) give(x *T) {
	r.back = append(r.back, x)
	if len(r.back) < recycleBatch {
		return
	}
	r.mu.Lock()
	r.shared = append(r.shared, r.back...)
	r.mu.Unlock()
	clear(r.back)
	r.back = r.back[:0]
}
