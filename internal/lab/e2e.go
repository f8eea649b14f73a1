package lab

import (
	"context"
	"time"

	"github.com/prodlab/prodlab/internal/audit"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/e2e"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// The lab's side of many producers (workload.producers) and end-to-end
// latency (workload.consumer): the drivers run the producers and stamp
// the records; the lab runs the consumer around the driver, audits each
// producer's sequence and records the figures.

// defaultLagInterval is how often the consumer's lag is sampled when the
// experiment has no timeline.
const defaultLagInterval = time.Second

// startE2E starts the end-to-end consumer of t's topic when e asks for
// one (nil otherwise), through the target's connection options, sampling
// its lag once per timeline interval. It reads the brokers directly when
// the producers go through the netem proxies: the impairments model the
// producer's network, and the proxies' figures stay the producer's.
func startE2E(ctx context.Context, e expfile.Experiment, t driver.Trial, tgt *Target) (*e2e.Consumer, error) {
	if !e.Workload.Consumer {
		return nil, nil
	}
	every := t.TimelineInterval
	if every <= 0 {
		every = defaultLagInterval
	}
	bootstrap := t.Bootstrap
	if tgt.direct != nil {
		bootstrap = tgt.direct
	}
	return e2e.Start(ctx, bootstrap, t.Topic, every, e.Workload.IsolationLevel == expfile.ReadCommitted, tgt.conn.opts...)
}

// stopE2E stops the consumer (nil: nothing to do) once the producers have
// flushed and records its latency figures, and its lag on the timeline's
// points. A consumer that did not catch up is logged and marked
// (E2EBehind): its figures cover what it read.
func (x *executor) stopE2E(ctx context.Context, rec *results.Record, c *e2e.Consumer, res *driver.Result) {
	if c == nil {
		return
	}
	out, err := c.Stop(ctx)
	if err != nil {
		x.logf("%v", err)
	}
	rec.E2EBehind = !out.CaughtUp
	if out.Latency.TotalCount() > 0 {
		l := summary.LatencyMs(out.Latency)
		rec.LatencyE2EMs = &l
		if enc, err := stats.EncodeHistogram(out.Latency); err == nil {
			rec.HistogramE2E = enc
		}
	}
	if rec.Timeline != nil && res != nil {
		placeLag(rec.Timeline, res.ClockStart, out.Lag)
	}
}

// placeLag gives each timeline point the lag sample nearest its end,
// when one lies within an interval of it.
func placeLag(tl *results.Timeline, clock time.Time, lag []e2e.LagSample) {
	for i := range tl.Points {
		p := &tl.Points[i]
		end := clock.Add(time.Duration((p.TMs + p.DurMs) * float64(time.Millisecond)))
		best, bestD := -1, time.Duration(tl.IntervalMs*float64(time.Millisecond))
		for j, s := range lag {
			if d := s.At.Sub(end).Abs(); d <= bestD {
				best, bestD = j, d
			}
		}
		if best >= 0 {
			v := lag[best].Lag
			p.Lag = &v
		}
	}
}

// fillProducers records each producer's share when the trial ran several.
func fillProducers(rec *results.Record, res *driver.Result) {
	for _, p := range res.Producers {
		rec.Producers = append(rec.Producers, results.Producer{
			Records:     results.Records{Sent: p.Sent, Acked: p.Acked, Failed: p.Failed},
			RecordsPerS: p.RecordsPerS(),
			ElapsedS:    p.Elapsed.Seconds(),
			Node:        p.Node,
			NodeCPUS:    p.CPU.Seconds(),
		})
	}
}

// auditObserver is what the audit feeds the records read back to: one
// checker for a single producer, a group of one checker per producer
// (each its own tag and sequence) for several; result sums them.
func auditObserver(tag string, res *driver.Result) (audit.Observer, func() audit.Result) {
	if len(res.Producers) == 0 {
		var out audit.Outcome
		if res.Acks != nil {
			out = res.Acks
		}
		c := audit.NewChecker(tag, res.AuditSent(), out)
		return c, c.Result
	}
	cs := make([]*audit.Checker, 0, len(res.Producers))
	for _, p := range res.Producers {
		var out audit.Outcome
		if p.Acks != nil {
			out = p.Acks
		}
		cs = append(cs, audit.NewChecker(p.Tag, p.AuditSent(), out))
	}
	g := audit.NewGroup(cs...)
	return g, g.Result
}
