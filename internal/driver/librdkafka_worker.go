//go:build librdkafka

package driver

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/confluentinc/confluent-kafka-go/v2/kafka"
)

// LibrdkafkaVersion is the version of the librdkafka linked into this
// binary (confluent-kafka-go's bundled build).
func LibrdkafkaVersion() string {
	_, v := kafka.LibraryVersion()
	return v
}

// ServeLibrdkafka serves the worker protocol with librdkafka (the worker's
// main loop).
func ServeLibrdkafka(in io.Reader, out io.Writer) error {
	return LibrdkafkaService().Serve(in, out)
}

// LibrdkafkaService is the librdkafka worker's service: served as a
// protocol worker, or as a Trogdor task's command (ServeTrogdor).
func LibrdkafkaService() WorkerService {
	return WorkerService{Client: "librdkafka " + LibrdkafkaVersion(), Run: RunLibrdkafka}
}

// LibrdkafkaCheck resolves a configuration given as JSON (the worker's
// check command): the client's resolved configuration, or its refusal.
func LibrdkafkaCheck(in []byte) (map[string]string, error) {
	var conf map[string]string
	if err := json.Unmarshal(in, &conf); err != nil {
		return nil, fmt.Errorf("read the configuration: %w", err)
	}
	return librdkafkaResolve(conf)
}

// LibrdkafkaPropertiesTable is librdkafka's own table of its properties.
func LibrdkafkaPropertiesTable() string { return librdkafkaPropertiesTable() }

// RunLibrdkafka runs one producer's trial with librdkafka; several
// producers (Trial.Producers > 1) each run their own client concurrently.
func RunLibrdkafka(ctx context.Context, t Trial) (*Result, error) {
	if producerCount(t) > 1 {
		return runShared(ctx, t, runLibrdkafkaOne)
	}
	return runLibrdkafkaOne(ctx, t)
}

// runLibrdkafkaOne runs a trial through one librdkafka producer.
func runLibrdkafkaOne(ctx context.Context, t Trial) (*Result, error) {
	ctx, cancel := trialContext(ctx, t)
	defer cancel()
	rr, err := newRdRun(ctx, t)
	if err != nil {
		return nil, err
	}
	defer rr.close()
	if err := rr.run(ctx, rr); err != nil {
		// A transaction that could not end (a fenced producer, a failed
		// abort): what was decided so far is the trial's result, for the
		// audit.
		rr.abandon()
		return rr.result(), fenced(err, rdFenced)
	}
	flushErr, txnErr := rr.finish(ctx)
	if txnErr != nil { // the last transaction could not end: the same
		rr.abandon()
		return rr.result(), fenced(txnErr, rdFenced)
	}
	res := rr.result()
	if flushErr != nil {
		return res, fmt.Errorf("trial did not finish within %s: %d of %d measured records acknowledged: %w", t.Timeout, res.Acked, res.Sent, flushErr)
	}
	return res, nil
}
