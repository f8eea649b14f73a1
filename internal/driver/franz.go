package driver

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"
	"unsafe"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// Franz runs trials in process with franz-go (github.com/twmb/franz-go).
type Franz struct{}

// NewFranz returns the franz-go driver.
func NewFranz() *Franz { return &Franz{} }

func init() {
	register(clients.Franz, kind{
		check:   func(_ string, props map[string]string) error { return NewFranz().Check(props) },
		start:   func(context.Context, string, string, string) (Driver, error) { return NewFranz(), nil },
		notes:   franzNotes,
		service: FranzService,
	})
}

// Name implements Driver.
func (*Franz) Name() string { return clients.Franz }

// Close implements Driver; franz-go holds nothing between trials.
func (*Franz) Close() error { return nil }

// Check implements Driver: every property must map onto a kgo option, and
// kgo must accept the options together (it validates them when a client is
// built, which connects to nothing).
func (*Franz) Check(props map[string]string) error {
	s, err := mapFranzProps(kafkaconf.Decode(props))
	if err != nil {
		return err
	}
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers("127.0.0.1:9092")}, s.opts...)...)
	if err != nil {
		return fmt.Errorf("franz-go rejects these producer properties: %w", err)
	}
	cl.Close()
	return nil
}

// FranzVersion is the franz-go module version linked into this binary.
func FranzVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, m := range bi.Deps {
			if m.Path == "github.com/twmb/franz-go" {
				return m.Version
			}
		}
	}
	return "unknown"
}

// FranzService is franz-go as a protocol worker of its own, for a Trogdor
// agent's ExternalCommandSpec task (prodlab worker franz-go trogdor):
// locally franz-go runs in prodlab's process.
func FranzService() WorkerService {
	return WorkerService{Client: "franz-go " + FranzVersion(), Run: NewFranz().Run}
}

// Run implements Driver. Records are produced asynchronously through one
// client, in one stream: the warm-up records first (Trial.WarmupRecords,
// Trial.Warmup), then the measured ones (Trial.Records, or Trial.Duration),
// with sequence numbers running on from 0. The measured clock runs from the
// first measured hand-off to the return of Flush, when every record has been
// acknowledged or has failed (for a transactional producer, to the end of
// its final commit, as before).
//
// With Trial.Producers > 1, each producer is its own kgo client running
// its share of the trial concurrently (see producers.go).
func (f *Franz) Run(ctx context.Context, t Trial) (*Result, error) {
	if producerCount(t) > 1 {
		return runShared(ctx, t, f.runOne)
	}
	return f.runOne(ctx, t)
}

// runOne runs a trial through one client.
func (f *Franz) runOne(ctx context.Context, t Trial) (*Result, error) {
	ctx, cancel := trialContext(ctx, t)
	defer cancel()
	fr, err := newFranzRun(ctx, t)
	if err != nil {
		return nil, err
	}
	defer fr.close()
	if err := fr.produce(ctx); err != nil {
		// A transaction that could not end (a fenced producer, a failed
		// abort): what was decided so far is the trial's result, for the
		// audit.
		fr.abandon()
		return fr.result(), fenced(err, franzFenced)
	}
	flushErr, err := fr.finish(ctx)
	if err != nil { // the last transaction could not end: the same
		fr.abandon()
		return fr.result(), fenced(err, franzFenced)
	}
	res := fr.result()
	if flushErr != nil {
		return res, fmt.Errorf("trial did not finish within %s: %d of %d measured records acknowledged: %w", t.Timeout, res.Acked, res.Sent, flushErr)
	}
	return res, nil
}

// franzRecord is the record prodlab hands to kgo plus what the promise
// needs: one allocation per record, no per-record context.
type franzRecord struct {
	kgo.Record // first field: a *kgo.Record of a franzRecord is its address
	seq        int64
	handoff    time.Time // monotonic hand-off time
	intended   time.Time // rate-limited trials: when the record was due
	hdr        []byte    // the audit header's value, reused
	stamp      []byte    // the hand-off time header's value, reused
	key        []byte    // the key's bytes, reused (Key stays nil when keyless)
	// buf holds the value of a generator that writes it (payload.Fill);
	// Value points into the generator's own bytes when it has them.
	buf []byte
}

// reset clears a finished record for reuse, keeping its buffers.
func (r *franzRecord) reset() {
	headers, hdr, key, stamp, buf := r.Headers[:0], r.hdr[:0], r.key[:0], r.stamp[:0], r.buf
	*r = franzRecord{hdr: hdr, key: key, stamp: stamp, buf: buf}
	r.Headers = headers
}

// fromKgo recovers the franzRecord of a record prodlab produced. kgo hands
// the promise the pointer it was given, &franzRecord.Record, which is the
// franzRecord's own address since Record is its first field.
func fromKgo(r *kgo.Record) *franzRecord {
	return (*franzRecord)(unsafe.Pointer(r))
}

// franzNotes is franz-go's kind.notes: the kgo option of each setting.
func franzNotes(props map[string]string) (string, map[string]string) {
	per := map[string]string{}
	for k, t := range FranzOptions(props) {
		if t != "" {
			per[k] = "franz-go: " + t
		}
	}
	return "The client is franz-go: above each property, the kgo option prodlab's driver makes of it.", per
}
