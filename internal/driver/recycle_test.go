package driver

import (
	"strings"
	"sync"
	"testing"
	"time"
)

// TestRecycler: a record the reporting side gives back is taken again
// once a batch of them is in, the building side's kept records come first,
// and nothing is handed out twice while in flight, across two goroutines
// (run with -race).
func TestRecycler(t *testing.T) {
	type rec struct{ n int }
	var r recycler[rec]
	a := r.take()
	r.keep(a)
	if got := r.take(); got != a {
		t.Fatalf("a kept record was not taken next")
	}
	// Fewer than a batch given back stay on the reporting side.
	given := map[*rec]bool{}
	for range recycleBatch - 1 {
		x := r.take()
		given[x] = true
		r.give(x)
	}
	if x := r.take(); given[x] {
		t.Fatalf("a record came back before its batch was full")
	} else {
		r.give(x) // the batch is full now
		given[x] = true
	}
	for range recycleBatch {
		if x := r.take(); !given[x] {
			t.Fatalf("a new record was made while %d given back waited", recycleBatch)
		}
	}

	// Concurrent: the reporting side gives back what the building side
	// handed over; a record handed out twice while in flight is caught.
	var p recycler[rec]
	ch := make(chan *rec, 64)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for x := range ch {
			if x.n != 1 {
				t.Errorf("record in flight twice: n=%d", x.n)
			}
			x.n = 0
			p.give(x)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for i := 0; i < 200_000 && time.Now().Before(deadline); i++ {
		x := p.take()
		x.n++
		ch <- x
	}
	close(ch)
	wg.Wait()
}

// TestMonoClock: the clock's times do not go back, differ from time.Now
// by well under a millisecond, and carry a monotonic reading (durations
// between them ignore wall-clock steps).
func TestMonoClock(t *testing.T) {
	c := newMonoClock()
	prev := c.now()
	for range 1000 {
		now := c.now()
		if now.Before(prev) {
			t.Fatalf("clock went back: %v after %v", now, prev)
		}
		prev = now
	}
	if d := time.Since(c.now()); d < 0 || d > 50*time.Millisecond {
		t.Fatalf("clock is %v from time.Now", d)
	}
	if s := c.now().String(); !strings.Contains(s, "m=+") {
		t.Fatalf("no monotonic reading in %q", s)
	}
}
