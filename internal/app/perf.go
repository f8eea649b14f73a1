package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/lab"
	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/secret"
)

// PerfRequest is a checked `prodlab perf` invocation
// (kafka-producer-perf-test's options, the properties merged as perf-test
// merges them).
type PerfRequest struct {
	Topic string
	// Records is the total, warm-up included (perf-test's --num-records).
	Records, Warmup int64
	// RecordSize is the generated values' size; 0 with a payload file.
	RecordSize int
	// Payload is the payload kind for driver.Trial.
	Payload string
	// FileSizes are the payload file's record sizes in the order the
	// driver cycles them (nil without a payload file).
	FileSizes []int
	// Rate is in records/s; 0 unthrottled.
	Rate float64
	// Settings are the producer properties, read once.
	Settings kafkaconf.Settings
	// Bootstrap is the cluster to reach; nil starts an embedded one.
	Bootstrap  []string
	Client     string
	Partitions int
	// Timeout bounds the run's one trial, warm-up included.
	Timeout time.Duration
}

// PerfAnswer is what perf measured beyond the lines it printed.
type PerfAnswer struct {
	// Metrics are the client's metrics after the measured trial.
	Metrics map[string]float64
}

// CheckProducer applies client's own checks to the producer properties
// (an InputError): what the client would refuse is refused before
// anything starts.
func CheckProducer(client string, props map[string]string) error {
	if err := driver.Check(client, props); err != nil {
		return invalid(err)
	}
	return nil
}

// Perf runs req: the cluster (req.Bootstrap's or an embedded one), the
// topic, the client, the warm-up and measured trials, writing
// kafka-producer-perf-test's lines to out and prodlab's own to log.
// Failed records are an error naming the commonest reasons.
func Perf(ctx context.Context, req PerfRequest, out, log io.Writer) (*PerfAnswer, error) {
	if err := preflightPerf(ctx, req); err != nil {
		return nil, err
	}
	if len(req.Bootstrap) > 0 {
		if err := Reachable(ctx, req.Bootstrap); err != nil {
			return nil, fmt.Errorf("--bootstrap-server: %w", err)
		}
	}
	tgt, err := perfTarget(ctx, req, log)
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := tgt.Close(); err != nil {
			fmt.Fprintf(log, "prodlab perf: stop embedded cluster: %v\n", err)
		}
	}()
	fmt.Fprintf(log, "prodlab perf: %d records to %s with %s; producer properties: %s\n",
		req.Records, req.Topic, req.Client, DescribeProps(req.Settings.Raw()))
	if err := perfTopic(ctx, tgt, req, log); err != nil {
		return nil, err
	}
	d, err := tgt.Driver(ctx, req.Client)
	if err != nil {
		return nil, err
	}
	run := perfRun{req: req, tgt: tgt, d: d, out: out}
	return run.trials(ctx)
}

// preflightPerf checks, before any cluster starts, what run checks before
// its first trial (PlanRun): a cache directory that can be one, and a
// client release that exists and prodlab runs (driver.Resolve, which
// lab.Preflight calls for run). A bad release is an InputError.
func preflightPerf(ctx context.Context, req PerfRequest) error {
	if err := maven.CheckCacheDir(); err != nil {
		return invalid(err)
	}
	if driver.NeedsWorker(req.Client) {
		if err := checkJarPath(WorkerJar()); err != nil {
			return invalid(fmt.Errorf("client %s needs the Java worker: %w", req.Client, err))
		}
	}
	if err := driver.Resolve(ctx, req.Client); err != nil {
		var re *driver.ReleaseError
		if errors.As(err, &re) {
			return invalid(err)
		}
		return err
	}
	return nil
}

// perfRun is one perf invocation's client on its cluster.
type perfRun struct {
	req PerfRequest
	tgt *lab.Target
	d   driver.Driver
	out io.Writer
}

// trials runs the one trial, its warm-up (if any) first in the same stream
// through the same producer, as kafka-producer-perf-test's
// --warmup-records does, and prints perf-test's final lines.
func (r perfRun) trials(ctx context.Context) (*PerfAnswer, error) {
	warmup := r.req.Warmup > 0
	if warmup {
		fmt.Fprintf(r.out, "Warmup first %d records. Steady state results will print after the complete test summary.\n", r.req.Warmup)
	}
	t, steadyLine := r.trial()
	res, err := r.d.Run(ctx, t)
	if err != nil {
		return nil, fmt.Errorf("trial: %w", err)
	}
	steadyLine()
	steady, warm := r.req.totals(res), r.req.warmupTotals(res)
	if warmup {
		report.PerfTestTotal(r.out, warm.add(steady).line(false))
	}
	report.PerfTestTotal(r.out, steady.line(warmup))
	ans := &PerfAnswer{Metrics: res.Metrics}
	if failed := warm.failed + steady.failed; failed > 0 {
		msg := driver.TopErrors(allErrors(res), 3)
		if msg == "" {
			msg = "no error message"
		}
		return ans, fmt.Errorf("%d records failed: %s", failed, msg)
	}
	return ans, nil
}

// allErrors counts res's failed records by message, the warm-up's and the
// measured window's together, as perf-test's whole run counts them.
func allErrors(res *driver.Result) map[string]int64 {
	out := maps.Clone(res.Errors)
	if out == nil {
		out = map[string]int64{}
	}
	for k, n := range res.WarmupErrors {
		out[k] += n
	}
	return out
}

// trial is perf's trial, printing perf-test's periodic lines as it goes
// and its "In steady state." line once the first measured record is
// handed over; steadyLine prints that line if the trial ended before a
// progress report saw it (call it after Run returns).
func (r perfRun) trial() (t driver.Trial, steadyLine func()) {
	w := &report.PerfWindows{W: r.out, Every: report.PerfWindowEvery, RecordBytes: r.req.meanRecordBytes()}
	said := r.req.Warmup <= 0
	steadyLine = func() {
		if !said {
			fmt.Fprintln(r.out, "In steady state.")
			said = true
		}
	}
	return driver.Trial{
		Bootstrap:     r.tgt.Bootstrap(),
		Topic:         r.req.Topic,
		Settings:      r.req.Settings,
		Records:       r.req.Records - r.req.Warmup,
		WarmupRecords: r.req.Warmup,
		RecordSize:    r.req.RecordSize,
		Payload:       r.req.Payload,
		Rate:          r.req.Rate,
		Timeout:       r.req.Timeout,
		Progress: func(p driver.Progress) {
			if p.Sent > r.req.Warmup {
				steadyLine()
			}
			w.Add(report.PerfProgress{Elapsed: p.Elapsed, Count: p.WindowCount, LatencySumUs: p.WindowLatencySumUs, LatencyMaxUs: p.WindowLatencyMaxUs})
		},
	}, steadyLine
}

// perfTarget reaches the request's bootstrap as given (its credentials are
// the producer's, which prodlab's admin client may lack), or starts a fresh
// embedded 1-broker cluster in a temporary directory that Close stops and
// removes.
func perfTarget(ctx context.Context, req PerfRequest, log io.Writer) (*lab.Target, error) {
	if len(req.Bootstrap) > 0 {
		return lab.StartTarget(ctx, lab.TargetConfig{Bootstrap: req.Bootstrap, SkipConnect: true, ClientProps: req.Settings.Raw(), WorkerJar: WorkerJar()})
	}
	sctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	tgt, err := lab.StartTarget(sctx, lab.TargetConfig{Brokers: 1, WorkerJar: WorkerJar()})
	if err != nil {
		return nil, fmt.Errorf("embedded cluster: %w", err)
	}
	fmt.Fprintf(log, "prodlab perf: started Kafka %s on %s (embedded; stopped at the end)\n",
		tgt.Version(), strings.Join(tgt.Bootstrap(), ","))
	return tgt, nil
}

// perfTopic creates the topic with req.Partitions partitions (replication
// factor: the broker's default) unless it exists, and waits until it is
// served (lab.Target.EnsureTopic), so the clock does not include topic
// creation. A topic not served in time is an error. A topic prodlab
// cannot create (a cluster that needs credentials its admin client does
// not have: SASL, TLS) gets a warning instead: the producer may still
// create or find it.
func perfTopic(ctx context.Context, tgt *lab.Target, req PerfRequest, log io.Writer) error {
	created, err := tgt.EnsureTopic(ctx, req.Topic, req.Partitions, -1, nil)
	var notServed *cluster.NotServedError
	switch {
	case created:
		fmt.Fprintf(log, "prodlab perf: created topic %s with %d partition(s)\n", req.Topic, req.Partitions)
		return err
	case err == nil, errors.As(err, &notServed):
		return err
	default:
		fmt.Fprintf(log, "prodlab perf: could not create topic %s (%v); producing anyway\n", req.Topic, err)
		return nil
	}
}

// ValueBytes is the total value size of records 0..n-1 of a trial.
func (req PerfRequest) ValueBytes(n int64) int64 {
	if req.FileSizes == nil {
		return n * int64(req.RecordSize)
	}
	k := int64(len(req.FileSizes))
	var cycle, prefix int64
	for i, s := range req.FileSizes {
		cycle += int64(s)
		if int64(i) < n%k {
			prefix += int64(s)
		}
	}
	return n/k*cycle + prefix
}

// meanRecordBytes is the mean value size, for the periodic lines' MB/sec.
func (req PerfRequest) meanRecordBytes() float64 {
	if req.FileSizes == nil {
		return float64(req.RecordSize)
	}
	return float64(req.ValueBytes(int64(len(req.FileSizes)))) / float64(len(req.FileSizes))
}

// DescribeProps renders the producer properties sorted, secrets hidden.
func DescribeProps(props map[string]string) string {
	keys := slices.Sorted(maps.Keys(props))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + secret.Shown(k, props[k])
	}
	return strings.Join(parts, " ")
}
