package driver

import (
	"errors"
	"fmt"
)

// Many producers in the Java worker: one run request carries one
// sub-request per producer (its share of the trial, with its own id); the
// worker runs them concurrently, each with its own KafkaProducer, in its
// one JVM, sends each one's progress under its own id, and answers with
// one result holding every producer's result in order (docs/worker-protocol.md, "many
// producers").

// newSharedRunRequest is the run request with id for t's producers, which
// take the ids id+1..id+n.
func newSharedRunRequest(id int64, t Trial) workerRequest {
	n := producerCount(t)
	req := workerRequest{Op: "run", ID: id, TimeoutMs: t.Timeout.Milliseconds()}
	for i := range n {
		req.Producers = append(req.Producers, newRunRequest(id+1+int64(i), t.share(i, n)))
	}
	return req
}

// progressRouter passes a progress message of req (or of one of its
// producers) to the trial's progress callback, summing the producers'.
func progressRouter(req workerRequest, progress func(Progress)) func(id int64, p Progress) {
	if progress == nil {
		return nil
	}
	if len(req.Producers) == 0 {
		return func(_ int64, p Progress) { progress(p) }
	}
	fan := newProgressFan(len(req.Producers), progress)
	return func(id int64, p Progress) {
		if i := id - req.ID - 1; i >= 0 && i < int64(len(req.Producers)) {
			fan.of(int(i))(p)
		}
	}
}

// ownsID reports whether a message with id answers req or one of its
// producers.
func ownsID(req workerRequest, id int64) bool {
	return id == req.ID || id > req.ID && id <= req.ID+int64(len(req.Producers))
}

// toSharedResult converts the result of a run request with producers: each
// producer's result is converted for its share and the results merged. A
// producer the client refused fails the trial, naming the producer.
func (m *workerMessage) toSharedResult(t Trial) (*Result, error) {
	n := producerCount(t)
	if !m.OK && len(m.Producers) == 0 {
		return m.toResult(t) // the request as a whole was refused
	}
	if len(m.Producers) != n {
		return nil, fmt.Errorf("java worker answered %d producer results for %d producers", len(m.Producers), n)
	}
	shares := make([]Trial, n)
	parts := make([]*Result, n)
	errs := make([]error, n)
	for i, pm := range m.Producers {
		shares[i] = t.share(i, n)
		parts[i], errs[i] = pm.toResult(shares[i])
	}
	res := mergeResults(shares, parts)
	if err := firstError(errs); err != nil {
		if errors.Is(err, ErrFenced) { // the figures as far as they went
			return res, err
		}
		return nil, err
	}
	return res, nil
}
