package lab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"golang.org/x/sys/unix"

	"github.com/prodlab/prodlab/internal/audit"
	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/model"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// executor runs one trial at a time on a session and returns its record:
// a fresh topic, the scenario's driver with its proxies, faults and
// end-to-end consumer, CPU around it, the topic's size on disk and the
// audit. It knows nothing of rounds: a scheduler decides what runs next.
type executor struct {
	// root is the run's context: once it is done, the user interrupted.
	root       context.Context
	run        string // the run directory's name
	experiment string
	keepTopics bool
	ev         events
	// model predicts what the emulated path allows, beside the measured
	// figure (network.model_mb_per_s).
	model model.Model
	// kip1269Native is shared with the runner, which fills it as it
	// starts clusters (kip1269.go), for each record's label.
	kip1269Native map[string]string
	// cpus are the run's CPU sets, planned at the first trial that pins
	// (cpuset.go); nil until then. noSplit is set once cluster.cpus: auto
	// found nothing to split; autoSaid, for each cluster size, that auto
	// logged what it chose.
	cpus     *cpuSets
	noSplit  bool
	autoSaid map[int]bool
	// arm, in a duet round, is the CPU set this trial's arm runs on and
	// the rendezvous with the other arm before the window (duet.go).
	arm *duetArm
	// brokerCPUs is the set the current trial's brokers were pinned to
	// (nil: not pinned), for a broker a fault restarts (repin).
	brokerCPUs *unix.CPUSet
	// proxied lists the scenarios whose clients go through the proxies
	// (proxiedScenarios); the others use the brokers' direct addresses.
	proxied map[string]bool
	// workers maps each scenario to its client process's class
	// (workerClasses).
	workers map[string]string
	// actions, if set, override the registered fault actions by type
	// (Options.actions: a test's broker that does not come back).
	actions map[string]faultAction
}

// session is one started cluster that trials run on: its target, admin
// client and the context its supervision ends when the cluster is lost.
type session struct {
	g    *clusterGroup
	tgt  *Target
	adm  *cluster.Admin
	ctx  context.Context
	stop func()
	// warmed is the warm-up's outcome, written into each measured record.
	warmed *results.Warmed
	// life numbers this start of the cluster among the run's lives of it
	// (results.Record.Life).
	life int
}

// trialSpec is one trial to run: trial n of scenario sc, among its warm-up
// (warm) or measured trials. A capacity search sets rate, the probe's
// offered rate in records/s; 0 runs the scenario's own, which in a
// capacity run (no workload.rate) is the unthrottled ceiling probe.
type trialSpec struct {
	sc   expfile.Scenario
	n    int
	warm bool
	rate float64
}

func (x *executor) logf(format string, args ...any) { x.ev.logf(format, args...) }

// trial runs t on s's cluster on a fresh topic and returns its record and
// the closing words of its progress line.
func (x *executor) trial(ctx context.Context, s *session, t trialSpec) (results.Record, string) {
	sc, n, warm, tgt, adm := t.sc, t.n, t.warm, s.tgt, s.adm
	if t.rate > 0 {
		sc.Exp.Workload.Rate = t.rate // sc is this trial's copy
	}
	e := sc.Exp
	phase := "r"
	if warm {
		phase = "w"
	}
	topic := fmt.Sprintf("prodlab-%s-s%d-%s%d-%d", sanitize(x.experiment), sc.Index, phase, n, time.Now().UnixNano()%1e6)
	rec := x.baseRecord(sc, n, tgt.version)
	rec.Warmup = warm
	rec.Life = s.life
	rec.Topic = topic
	x.ev.publish(Event{Kind: TrialStarted, Scenario: label(sc), Trial: n, Warmup: warm})

	d, err := tgt.DriverFor(ctx, &e, x.workers[sc.ID])
	if err != nil {
		return x.failed(rec, err)
	}
	if err := tgt.roomInMemory(); err != nil {
		return x.failed(rec, err)
	}
	if err := tgt.createTopic(ctx, adm, topic, e.Topic); err != nil {
		return x.failed(rec, err)
	}
	if !x.keepTopics {
		defer func() {
			if err := adm.DeleteTopic(context.Background(), topic); err != nil {
				x.logf("%v", err)
			} else if err := tgt.awaitTopicGone(ctx, topic); err != nil {
				x.logf("%v", err)
			}
		}()
	}
	tr := &trialRun{s: s, e: e, d: d, bootstrap: tgt.bootstrap, proxied: tgt.net != nil}
	if tr.proxied && tgt.direct != nil && !x.proxied[sc.ID] {
		tr.bootstrap, tr.proxied = tgt.direct, false
	}
	tr.dt = x.driverTrial(sc, n, warm, topic, tr.bootstrap)
	tr.dt.Settings = driver.WithConnection(tr.dt.Settings, tgt.conn.props)
	if e.Audited() {
		tr.dt.Tag = fmt.Sprintf("%s-s%d-%s%d", x.run, sc.Index, phase, n)
	}
	res, runErr := x.runMeasured(ctx, &rec, tr)
	if res != nil && e.Workload.Rate > 0 {
		rec.Load = loadOf(&rec, e.Workload.Rate)
	}
	if tr.dt.Tag != "" && res != nil && ctx.Err() == nil {
		if err := x.audit(ctx, &rec, tr.bootstrap, topic, tr.dt.Tag, res, tgt.conn.opts...); err != nil {
			return x.failed(rec, err)
		}
	}
	if runErr != nil && res != nil && errors.Is(runErr, driver.ErrFenced) && e.FencesProducer() {
		return x.fencedEnd(rec, d.Name(), e.Expect, runErr)
	}
	if runErr != nil {
		return x.failed(rec, runErr)
	}
	if disk, err := adm.DiskBytes(ctx, topic, e.Topic.Partitions); err != nil {
		x.logf("%v", err)
	} else {
		rec.DiskBytes = disk
		tgt.noteStored(disk, e.Topic.ReplicationFactor)
	}
	return x.finished(rec, d.Name(), e.Expect, res.Log)
}

// driverTrial is what the driver is asked to run for trial n of sc.
func (x *executor) driverTrial(sc expfile.Scenario, n int, warm bool, topic string, bootstrap []string) driver.Trial {
	e := sc.Exp
	tr := driver.Trial{
		Bootstrap: bootstrap,
		Topic:     topic,
		// Each trial's own transactional.id: the user's, then the topic.
		Settings:   kafkaconf.Decode(e.Producer).WithSuffixedTransactionalID(topic),
		Records:    e.Workload.Records,
		RecordSize: e.Workload.RecordSize,
		Payload:    e.Workload.Payload,
		Keys:       e.Workload.Keys,
		Rate:       e.Workload.Rate,
		// Many producers and the end-to-end consumer's stamps (e2e.go).
		Producers:    e.Workload.Producers,
		StampHandoff: e.Workload.Consumer,
		Seed:         seed(sc, n, warm),
		Timeout:      seconds(e.Workload.TimeoutS),
		Duration:     seconds(e.Workload.DurationS),
		Warmup:       seconds(e.Workload.WarmupS),
		// A time-bounded warm-up alone would be capped by records 0.
		WarmupRecords:    warmupRecords(e.Workload),
		TimelineInterval: e.TimelineInterval(),
		Progress: func(p driver.Progress) {
			rate := 0.0
			if s := p.Elapsed.Seconds(); s > 0 {
				rate = float64(p.Acked) / s
			}
			x.ev.publish(Event{Kind: TrialProgress, Sent: p.Sent, Acked: p.Acked, Rate: rate})
		},
	}
	tr.CatchUp, tr.CatchUpMax = catchUp(&e)
	tr.Warmup += heldLonger(&e)
	return tr
}

// catchUp is how close to its schedule the producer of a rate-limited
// trial judged against an SLO (a capacity probe, an advise candidate at a
// fixed rate) must be when its window begins — half the tightest SLO
// bound, so that the window begins well inside what summary.StartBehind
// allows — and how long past the warm-up it may take to get there: one
// more window's length. Zero for every other trial
// (expfile.Experiment.WarmupCatchesUp, which also sizes workload.timeout.s).
func catchUp(e *expfile.Experiment) (lag, most time.Duration) {
	if e.Workload.Rate <= 0 || !e.WarmupCatchesUp() || e.WarmupHeldTogether() {
		return 0, 0
	}
	tightest := summary.TightestSLO(e.Capacity.SLO)
	return time.Duration(tightest / 2 * float64(time.Millisecond)), seconds(e.Workload.DurationS)
}

// heldLonger is how much longer than workload.warmup.s the warm-up of a
// rate-limited trial whose producers are held together lasts
// (expfile.Experiment.WarmupHeldTogether): the one more window the catch-up
// may take, on every producer and node alike, so that the merged window
// begins at the same moment everywhere. Zero for every other trial.
func heldLonger(e *expfile.Experiment) time.Duration {
	if e.Workload.Rate <= 0 || !e.WarmupHeldTogether() {
		return 0
	}
	return seconds(e.Workload.DurationS)
}

// trialRun is one trial underway: the session it runs on, its scenario's
// settings, its driver and what the driver is asked to do, and the path to
// the brokers (through the proxies or not).
type trialRun struct {
	s         *session
	e         expfile.Experiment
	d         driver.Driver
	dt        driver.Trial
	bootstrap []string
	proxied   bool
}

// runMeasured runs the driver with the proxies set for the scenario, the
// faults on their timers and CPU read around it, and fills the record with
// what the driver, the proxies and the fault timers saw.
func (x *executor) runMeasured(ctx context.Context, rec *results.Record, tr *trialRun) (*driver.Result, error) {
	tgt, adm, e, d, t, proxied := tr.s.tgt, tr.s.adm, tr.e, tr.d, tr.dt, tr.proxied
	if proxied {
		tgt.net.SetConfigFunc(clientConfig(e, netemConfig(e, tgt.rewrite), tgt.zoneOf))
		tgt.net.ResetStats()
	}
	if tgt.links != nil {
		tgt.links.configure(e)
	}
	if e.Cluster.HasZones() && tgt.Embedded() {
		z, err := zoneLayout(ctx, adm, t.Topic, e)
		if err != nil {
			return nil, fmt.Errorf("zone layout of %s: %w", t.Topic, err)
		}
		rec.Zones = z
	}
	cons, err := startE2E(ctx, e, t, tgt)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	sets, err := x.pin(x.isolates(e, tgt), d, brokerPids(tgt))
	if err != nil {
		return nil, err
	}
	if x.arm != nil {
		x.arm.ready(ctx)
	}
	cpu0 := takeCPU(d, brokerPids(tgt))
	faults := x.startFaults(ctx, tgt, adm, t, e)
	unwatch := x.watchStuck(t.Topic, t.Timeout, stuckAfter)
	res, runErr := d.Run(ctx, t)
	unwatch()
	brokerEvents := faults.stop()
	if lost := tgt.Lost(); lost != nil && x.runContext().Err() == nil {
		// a fault's broker did not come back: the figures are of a broken
		// cluster, and the reason is the restart's, not the cancel's echo
		res, runErr = nil, lost
	}
	cpu1 := takeCPU(d, brokerPids(tgt))
	if x.arm != nil {
		x.arm.finished(ctx)
	}
	if res != nil {
		fillFromResult(rec, res)
		rec.Partitions = results.PartitionSpread(res.PartitionRecords, e.Topic.Partitions)
		fillTimeline(rec, res, t.Duration)
		rec.CPU = cpuCost(cpu0, cpu1, ackedBytes(res, res.Acked+res.WarmupAcked, e.Workload.RecordSize))
		if rec.CPU != nil {
			rec.CPU.Sets = sets
			x.arm.unshareClientCPU(rec.CPU)
		}
		fillProducers(rec, res)
	}
	x.stopE2E(ctx, rec, cons, res)
	net := results.NoNetwork()
	if proxied {
		x.fillNetwork(rec, &net, tgt, e, started)
	}
	if tgt.links != nil {
		net.ReplicationBytes = tgt.links.replicationBytes()
		if rec.Zones != nil {
			fillZoneLinks(rec.Zones, tgt.links.links())
		}
	}
	rec.Network = net.Map()
	rec.Events = append(rec.Events, brokerEvents...)
	placeEvents(rec, res)
	return res, runErr
}

// failed marks the record failed with err and says so in a progress
// line's closing words. A trial cut short because the user interrupted the
// run is marked interrupted instead: err is then only the interrupt's echo
// ("context canceled") and would mislead.
func (x *executor) failed(rec results.Record, err error) (results.Record, string) {
	if x.root != nil && x.root.Err() != nil {
		rec.Status = results.StatusInterrupted
		rec.Error = "interrupted before the trial finished"
		return rec, "interrupted"
	}
	rec.Status = results.StatusFailed
	rec.Error = err.Error()
	return rec, "FAILED: " + firstLine(err.Error())
}

// finished fails a trial whose records failed, marks it violated when its
// audit found what the experiment does not expect (want), quotes the
// client's log lines that explain failed records (clientLog), and closes
// its progress line with its figures (and a steady-state warning, never
// hidden).
func (x *executor) finished(rec results.Record, client string, want expfile.Expect, clientLog string) (results.Record, string) {
	if rec.Records.Failed > 0 {
		rec.Status = results.StatusFailed
		rec.Error = fmt.Sprintf("%d records failed: %s", rec.Records.Failed, driver.TopErrors(rec.Errors, 3))
		if clientLog != "" {
			rec.Error += "\n" + clientLog
		}
	}
	checkDelivery(&rec, want)
	x.ev.publish(Event{Kind: TrialProgress, Sent: rec.Records.Sent, Acked: rec.Records.Acked, Rate: rec.Throughput.RecordsPerS})
	note := ""
	if rec.Steady != nil && !rec.Steady.OK {
		note = ", NOT STEADY: " + rec.Steady.Reason
	}
	if rec.Status == results.StatusViolated {
		note += ", VIOLATED: " + rec.Error
	}
	return rec, fmt.Sprintf("%s, %.0f msg/s, %.2f MB/s, p99 %.2f ms, %d of %d records failed%s",
		client, rec.Throughput.RecordsPerS, rec.Throughput.MBPerS, rec.LatencyMs.P99, rec.Records.Failed, rec.Records.Sent, note)
}

// fencedEnd finishes a trial whose producer the experiment's own
// producer.fence fault fenced: it ended as asked, so neither the fencing
// error nor the records it failed fail it; the error goes to its events,
// and its audit (committed records once, nothing of the aborted or the
// fenced transaction visible) decides its status.
func (x *executor) fencedEnd(rec results.Record, client string, want expfile.Expect, err error) (results.Record, string) {
	rec.Events = append(rec.Events, results.Event{Time: time.Now().UTC().Format(time.RFC3339Nano), Kind: "fenced", Detail: firstLine(err.Error())})
	checkDelivery(&rec, want)
	// The fence aborted the transaction left open: none of it may show.
	if a := rec.Audit; a != nil && a.Transactions != nil && a.Transactions.UndecidedVisible > 0 && !want.AbortedVisible {
		msg := fmt.Sprintf("%d records of the transaction the fence aborted visible to read_committed", a.Transactions.UndecidedVisible)
		if rec.Status == results.StatusViolated {
			rec.Error += "; " + msg
		} else {
			rec.Status, rec.Error = results.StatusViolated, "delivery violated: "+msg+" (an experiment that expects this says expect.aborted.visible: true)"
		}
	}
	note := ""
	if rec.Status == results.StatusViolated {
		note = ", VIOLATED: " + rec.Error
	}
	return rec, fmt.Sprintf("%s, fenced after %d of %d records acknowledged%s", client, rec.Records.Acked, rec.Records.Sent, note)
}

// baseRecord fills what is known about a trial before it runs.
func (x *executor) baseRecord(sc expfile.Scenario, trial int, kafka string) results.Record {
	vals := make(map[string]any, len(sc.Values))
	for k, v := range sc.Values {
		vals[k] = scalar(v)
	}
	return results.Record{
		Schema:       results.Schema,
		Run:          x.run,
		Experiment:   x.experiment,
		Scenario:     vals,
		ScenarioKeys: sc.Keys,
		ScenarioID:   sc.ID,
		Trial:        trial,
		Status:       results.StatusOK,
		Client:       sc.Exp.Client,
		Kafka:        kafka,
		RecordSize:   sc.Exp.Workload.RecordSize,
		Emulated:     sc.Exp.KIP1269Label(x.kip1269Native[sc.Exp.Cluster.Kafka]),
		StartedAt:    time.Now().UTC().Format(time.RFC3339Nano),
	}
}

// failedRecord is the record of a trial of sc that could not run, with why.
func (x *executor) failedRecord(sc expfile.Scenario, round int, kafka string, err error) results.Record {
	rec := x.baseRecord(sc, round, kafka)
	rec.Status = results.StatusFailed
	rec.Error = err.Error()
	return rec
}

// fillFromResult copies a driver's measurements into the record and derives
// throughput and ratios from them.
func fillFromResult(rec *results.Record, res *driver.Result) {
	rec.Client = res.Client
	rec.Records = results.Records{Sent: res.Sent, Acked: res.Acked, Failed: res.Failed}
	rec.Errors = res.Errors
	rec.ElapsedS = res.Elapsed.Seconds()
	rec.Throughput = results.ThroughputOf(res.Acked, ackedBytes(res, res.Acked, rec.RecordSize), res.Elapsed)
	if res.Latency != nil {
		rec.LatencyMs = summary.LatencyMs(res.Latency)
		if enc, err := stats.EncodeHistogram(res.Latency); err == nil {
			rec.Histogram = enc
		}
	}
	if res.LatencyIntended != nil && res.LatencyIntended.TotalCount() > 0 {
		l := summary.LatencyMs(res.LatencyIntended)
		rec.LatencyIntendedMs = &l
	}
	rec.UncompressedBytes = res.UncompressedBytes
	rec.CompressedBytes = res.CompressedBytes
	if res.CompressedBytes > 0 {
		rec.CompressionRatio = float64(res.UncompressedBytes) / float64(res.CompressedBytes)
	}
	rec.Batches = res.Batches
	if res.Batches > 0 {
		// Batches are client totals, warm-up included.
		rec.RecordsPerBatch = float64(res.Acked+res.WarmupAcked) / float64(res.Batches)
	}
	rec.ProduceRequests = res.ProduceRequests
	rec.EffectiveConfig = secret.Mask(res.Effective)
	rec.ClientMetrics = res.Metrics
}

// ackedBytes is the value bytes of n of the trial's acknowledged records:
// n times their mean size as the timeline counted it (the records of a
// file: payload differ in size), or times recordSize when the timeline
// did not count every acknowledgement.
func ackedBytes(res *driver.Result, n int64, recordSize int) int64 {
	var acked, bytes int64
	for _, iv := range res.Timeline {
		acked += iv.Acked
		bytes += iv.AckedBytes
	}
	if acked == 0 || acked != res.Acked+res.WarmupAcked {
		return n * int64(recordSize)
	}
	return int64(math.Round(float64(n) * float64(bytes) / float64(acked)))
}

func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.' {
			return r
		}
		return '-'
	}, s)
}

// scalar turns a numeric matrix label into a JSON number, as in
// {"linger.ms":5}, and leaves everything else a string.
func scalar(v string) any {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		return n
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return f
	}
	return v
}

// fillNetwork records what the proxies saw during the trial and the pipe
// model's prediction into net, and any connection cuts into rec's events.
func (x *executor) fillNetwork(rec *results.Record, net *results.Network, tgt *Target, e expfile.Experiment, since time.Time) {
	st := tgt.net.Stats()
	proxyFigures(net, st)
	unreadUnderTLS(net, e)
	// Each broker the producer wrote to is one pipelined connection.
	conns := 0
	for _, id := range tgt.net.IDs() {
		if tgt.net.Proxy(id).Stats().ProduceRequests > 0 {
			conns++
		}
	}
	// Only the requests in flight the client reports matter here; without
	// a readable figure there is no model.
	inFlight, ok := kafkaconf.Effective(rec.EffectiveConfig).InFlight()
	path := model.Path{RTTMs: e.Network.RTTMs, BandwidthMbit: e.Network.BandwidthMbit, InFlight: inFlight, MeanRequestBytes: st.MeanRequestBytes}
	if m := x.model.MBPerS(path); ok && !math.IsNaN(m) && conns > 0 {
		net.ModelMBPerS = m * float64(conns)
	}
	for _, ev := range tgt.net.Events() {
		if ev.Time.Before(since) {
			continue // an earlier trial's
		}
		rec.Events = append(rec.Events, results.Event{Time: ev.Time.UTC().Format(time.RFC3339Nano), Kind: ev.Kind, Detail: ev.Detail})
	}
}

// audit reads the trial's topic back and records lost, duplicated,
// reordered, phantom and foreign records. A transactional producer's topic
// is read as a read_committed consumer would, then once more as a
// read_uncommitted one, to reconcile its aborted and committed records
// with both (results.AuditTxn). A partial read still records what was
// verified, and fails the trial with the reason.
func (x *executor) audit(ctx context.Context, rec *results.Record, bootstrap []string, topic, tag string, res *driver.Result, opts ...kgo.Opt) error {
	actx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	t0 := time.Now()
	txn := transactional(res)
	var readOpts []audit.Option
	if txn {
		readOpts = append(readOpts, audit.ReadCommitted())
	}
	found, err := readBack(actx, bootstrap, topic, tag, res, append(readOpts, audit.ClientOpts(opts...))...)
	a := found.Record()
	rec.Audit = &a
	if txn && err == nil && a.Transactions != nil {
		var log audit.Result
		log, err = readBack(actx, bootstrap, topic, tag, res, audit.ClientOpts(opts...))
		if log.Txn != nil {
			a.Transactions.AbortedInLog = log.Txn.AbortedSeen
		}
		a.Transactions.LostInLog = log.Lost
	}
	rec.AuditS = time.Since(t0).Seconds()
	x.logf("audit %s: read %d records in %.2fs (%.0f records/s): acked %d, lost %d, duplicates %d, reordered %d, phantom %d, foreign %d%s",
		topic, found.Read, rec.AuditS, float64(found.Read)/rec.AuditS, a.Acked, a.Lost, a.Duplicates, a.Reordered, a.Phantom, a.Foreign, txnAuditText(a.Transactions))
	if err != nil {
		return fmt.Errorf("audit: %w", err)
	}
	return nil
}

// readBack reads topic once into a fresh observer of the trial's
// producers and returns what it found.
func readBack(ctx context.Context, bootstrap []string, topic, tag string, res *driver.Result, opts ...audit.Option) (audit.Result, error) {
	c, result := auditObserver(tag, res)
	err := audit.ReadBack(ctx, bootstrap, topic, c, opts...)
	return result(), err
}

// transactional reports whether the trial's producers ran transactions.
func transactional(res *driver.Result) bool {
	if res.Acks != nil && res.Acks.Transactional() {
		return true
	}
	for _, p := range res.Producers {
		if p.Acks != nil && p.Acks.Transactional() {
			return true
		}
	}
	return false
}

// txnAuditText is the log's account of a transactional audit; "" for nil.
func txnAuditText(t *results.AuditTxn) string {
	if t == nil {
		return ""
	}
	s := fmt.Sprintf(" (read_committed); aborted %d: visible %d, in the log %d; committed lost from the log %d",
		t.Aborted, t.AbortedVisible, t.AbortedInLog, t.LostInLog)
	if t.Undecided > 0 {
		s += fmt.Sprintf("; undecided %d: visible %d", t.Undecided, t.UndecidedVisible)
	}
	return s
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
