package cli

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/app"
	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/inputfile"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/payload"
	"github.com/prodlab/prodlab/internal/secret"
)

// perfFlags are the flags of `prodlab perf`: kafka-producer-perf-test's own
// options, spelled as that tool spells them, plus prodlab's.
type perfFlags struct {
	// kafka-producer-perf-test's options
	topic            string
	numRecords       int64
	recordSize       int
	throughput       float64
	producerProps    []string
	producerConfig   string
	payloadFile      string
	payloadDelimiter string
	transactionalID  string
	txDurationMs     int64
	warmupRecords    int64
	printMetrics     bool

	// prodlab's own
	bootstrap  string
	client     string
	partitions int
	payload    string
	timeout    time.Duration
	dryRun     bool
}

// Defaults of perf-test's behaviour that perf reproduces.
const (
	// perfClientID is kafka-producer-perf-test's client.id unless one is given.
	perfClientID = "perf-producer-client"
	// perfTxIDPrefix prefixes the generated transactional.id, as in perf-test.
	perfTxIDPrefix = "performance-producer-"
	// perfTxDurationMs is perf-test's default transaction length.
	perfTxDurationMs = 3000
)

// perfPlan is a validated perf invocation: everything the run needs, with
// the producer properties merged as perf-test merges them.
type perfPlan struct {
	topic      string
	records    int64 // total, warm-up included (perf-test's --num-records)
	warmup     int64
	recordSize int    // 0 with a payload file
	payload    string // payload kind (app.PerfRequest.Payload)
	// fileSizes are the payload file's record sizes in the order the
	// driver cycles them (nil without a payload file).
	fileSizes    []int
	rate         float64 // records/s; 0 unthrottled
	props        map[string]string
	bootstrap    []string // nil: start an embedded cluster
	client       string
	partitions   int
	printMetrics bool
	timeout      time.Duration
	redact       *redactor
	// cleanup removes temporary files the plan made.
	cleanup func()
}

// resolvePerf validates the flags and merges the producer properties:
// --producer.config first, --producer-props (and extra, the positional
// arguments that followed them) over it, then --transactional-id. changed
// tells which flags the user set. Every error is a usage error.
//
// It works in two passes so that a user sees every mistake at once: the
// checks below each add their problems to one list, in the order of the
// calls (which is the order the problems are reported in), and only a
// clean command line goes on to build the plan. The checks that need the
// merged properties (the client's, the payload file's) come after that,
// and report a single problem.
func resolvePerf(f *perfFlags, changed func(string) bool, extra []string) (*perfPlan, error) {
	var problems perfProblems
	checkPerfCounts(f, changed, problems.add)
	checkPerfPayload(f, changed, problems.add)
	checkPerfThroughput(f, problems.add)
	checkPerfTransactions(f, changed, problems.add)
	checkPerfTopicAndTimeout(f, problems.add)
	checkPerfClient(f, problems.add)
	props := perfProducerProps(f, changed, extra, problems.add)
	bootstrap := takePerfBootstrap(f.bootstrap, changed("bootstrap-server"), props, problems.add)
	if err := problems.err(); err != nil {
		return nil, err
	}

	p := newPerfPlan(f)
	p.bootstrap = bootstrap
	setPerfProducerDefaults(props)
	setPerfTransactions(f, changed, props)
	p.props = props
	p.redact = newRedactor(props)
	secret.Remember(secret.Values(props)...) // and from the files and logs a perf run writes

	if err := app.CheckProducer(p.client, props); err != nil {
		return nil, p.redact.err(err)
	}
	if err := checkPerfTransactionConflict(props); err != nil {
		return nil, err
	}
	if err := p.usePayload(f); err != nil {
		return nil, usage(err)
	}
	return p, nil
}

// usePayload settles where the values come from, once the properties
// are: the payload file's payloads when one is given, and in any case a
// record size the client and broker can take (checkPerfRecordSize; with a
// payload file, its largest payload).
func (p *perfPlan) usePayload(f *perfFlags) error {
	if f.payloadFile == "" {
		return checkPerfRecordSize("--record-size", int64(p.recordSize), p.client, p.props, p.bootstrap == nil)
	}
	if err := p.usePayloadFile(f.payloadFile, f.payloadDelimiter); err != nil {
		return err
	}
	largest := slices.Max(p.fileSizes)
	if err := checkPerfRecordSize("--payload-file "+f.payloadFile, int64(largest), p.client, p.props, p.bootstrap == nil); err != nil {
		p.cleanup()
		return err
	}
	return nil
}

// perfProblems collects the command line's problems, one message each, so
// that resolvePerf reports them all together rather than one per attempt.
type perfProblems []string

// add records a problem, formatted as fmt.Sprintf does.
func (ps *perfProblems) add(format string, args ...any) {
	*ps = append(*ps, fmt.Sprintf(format, args...))
}

// err is the usage error listing the problems one a line, in the order
// they were added, or nil when there are none.
func (ps perfProblems) err() error {
	if len(ps) == 0 {
		return nil
	}
	return usage(errors.New(expfile.JoinShown(ps)))
}

// checkPerfCounts checks what is produced and how much: a topic, a
// positive --num-records (required, as perf-test requires it), and a
// --warmup-records that leaves at least one measured record, since the
// warm-up's records are taken out of the total.
func checkPerfCounts(f *perfFlags, changed func(string) bool, bad func(string, ...any)) {
	if f.topic == "" {
		bad("--topic is required")
	} else if err := kafkaconf.CheckTopicName(f.topic); err != nil {
		bad("--topic: %v", err)
	}
	if !changed("num-records") {
		bad("--num-records is required")
	} else if f.numRecords <= 0 {
		bad("--num-records should be greater than zero, got %d", f.numRecords)
	}
	if f.warmupRecords < 0 {
		bad("--warmup-records must not be negative, got %d", f.warmupRecords)
	} else if f.warmupRecords >= f.numRecords && f.numRecords > 0 {
		bad("--warmup-records (%d) must be fewer than --num-records (%d)", f.warmupRecords, f.numRecords)
	}
}

// checkPerfPayload checks where the values come from: exactly one of
// --record-size (a positive size of generated values, of the --payload
// kind) and --payload-file (the file's payloads, so --payload, which
// chooses generated values, cannot go with it). The file itself is read
// only once the command line is clean (perfPlan.usePayloadFile).
func checkPerfPayload(f *perfFlags, changed func(string) bool, bad func(string, ...any)) {
	hasSize, hasFile := changed("record-size"), f.payloadFile != ""
	switch {
	case hasSize && hasFile:
		bad("either --record-size or --payload-file must be given, not both")
	case !hasSize && !hasFile:
		bad("either --record-size or --payload-file must be given")
	case hasSize && f.recordSize <= 0:
		bad("--record-size should be greater than zero, got %d", f.recordSize)
	case hasSize:
		if err := payload.CheckSize(f.payload, f.recordSize); err != nil {
			bad("--record-size %v; use --record-size ≥ %d, or --payload text or random", err, payload.MinJSONSize)
		}
	}
	if hasFile && changed("payload") {
		bad("--payload chooses generated values; it cannot be combined with --payload-file")
	}
	if !payload.IsGenerated(f.payload) {
		kinds := payload.Kinds()
		bad("--payload must be %s or %s, got %q", strings.Join(kinds[:len(kinds)-1], ", "), kinds[len(kinds)-1], f.payload)
	}
}

// checkPerfThroughput checks --throughput as perf-test reads it: a
// positive rate in records/s, or -1 for none (any other negative, or
// zero, is a mistake rather than "unthrottled").
func checkPerfThroughput(f *perfFlags, bad func(string, ...any)) {
	if math.IsNaN(f.throughput) || math.IsInf(f.throughput, 0) || f.throughput == 0 || (f.throughput < 0 && f.throughput != -1) {
		bad("--throughput must be a positive number of records/s, or -1 for no limit, got %v", f.throughput)
	}
}

// checkPerfTransactions checks --transaction-duration-ms when it is given
// (its zero default means "not given": setPerfTransactions then uses
// perf-test's 3000 ms).
func checkPerfTransactions(f *perfFlags, changed func(string) bool, bad func(string, ...any)) {
	if changed("transaction-duration-ms") && f.txDurationMs <= 0 {
		bad("--transaction-duration-ms should be greater than zero, got %d", f.txDurationMs)
	}
}

// checkPerfTransactionConflict refuses, once the properties are merged, a
// transactional producer every client refuses (kafkaconf's
// TransactionConflict, the rule run applies too).
func checkPerfTransactionConflict(props map[string]string) error {
	prod, err := kafkaconf.Parse(props)
	if err != nil {
		return nil // each value was checked already; the client reports the rest
	}
	if err := prod.TransactionConflict(); err != nil {
		return usage(fmt.Errorf("--transactional-id: %w", err))
	}
	return nil
}

// checkPerfTopicAndTimeout checks prodlab's own bounds on the run: the
// partitions of a topic it creates, and the timeout of each trial.
func checkPerfTopicAndTimeout(f *perfFlags, bad func(string, ...any)) {
	if f.partitions < 1 {
		bad("--partitions must be at least 1, got %d", f.partitions)
	} else if err := expfile.CheckPartitions(f.partitions, 0); err != nil {
		bad("--partitions %v", err)
	}
	if f.timeout <= 0 {
		bad("--timeout must be positive, got %s", f.timeout)
	}
}

// checkPerfClient checks that --client names a producer prodlab has. The
// properties it must honour are checked later, against the merged set
// (driver.Check in resolvePerf).
func checkPerfClient(f *perfFlags, bad func(string, ...any)) {
	if _, err := clients.Parse(f.client); err != nil {
		bad("--client must be %s, got %q", clients.Syntax("VERSION"), f.client)
	}
}

// perfProducerProps merges the producer properties as perf-test does:
// --producer.config first, then --producer-props and extra (the
// NAME=VALUE arguments that followed them on the command line, as a
// pasted perf-test command has them) over it, names trimmed, values kept
// as given. Positional arguments without --producer-props are a mistake,
// not properties. Problems never quote a secret value (redactArg; the
// properties file's errors name lines, not values).
func perfProducerProps(f *perfFlags, changed func(string) bool, extra []string, bad func(string, ...any)) map[string]string {
	if len(extra) > 0 && !changed("producer-props") {
		bad("unexpected argument %q (producer properties go after --producer-props)", extra[0])
	}
	props := map[string]string{}
	if f.producerConfig != "" {
		fromFile, err := readJavaProperties(f.producerConfig)
		if err != nil {
			bad("--producer.config: %v", err)
		}
		for _, k := range slices.Sorted(maps.Keys(fromFile)) {
			checkPerfProp("--producer.config "+f.producerConfig+":", k, fromFile[k], bad)
			props[k] = fromFile[k]
		}
	}
	for _, kv := range append(append([]string(nil), f.producerProps...), extra...) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || strings.TrimSpace(k) == "" {
			bad("--producer-props: %q is not NAME=VALUE", redactArg(kv))
			continue
		}
		checkPerfProp("--producer-props", strings.TrimSpace(k), v, bad)
		props[strings.TrimSpace(k)] = v
	}
	return props
}

// newPerfPlan is the plan of validated flags before the properties are
// settled: the counts, the generated payload (usePayloadFile replaces it
// with a file's), prodlab's own settings, and the rate, where perf-test's
// -1 ("no limit") becomes 0, the drivers' unthrottled.
func newPerfPlan(f *perfFlags) *perfPlan {
	p := &perfPlan{
		topic:        f.topic,
		records:      f.numRecords,
		warmup:       f.warmupRecords,
		recordSize:   f.recordSize,
		payload:      f.payload,
		client:       f.client,
		partitions:   f.partitions,
		printMetrics: f.printMetrics,
		timeout:      f.timeout,
		cleanup:      func() {},
	}
	if f.throughput > 0 {
		p.rate = f.throughput
	}
	return p
}

// takePerfBootstrap removes bootstrap.servers from props and returns the
// addresses to reach: the flag (--bootstrap-server) when given, else the
// property (a pasted perf-test command has it there), checked by
// app.ParseBootstrap; nil means an embedded cluster. A list given but not
// valid (",", "foo", "127.0.0.1:99999") is a problem reported under the
// name it was given as, never an embedded cluster instead. The drivers
// get the bootstrap through the trial, not as a property.
func takePerfBootstrap(flag string, flagSet bool, props map[string]string, bad func(string, ...any)) []string {
	bs, fromProp := props["bootstrap.servers"]
	delete(props, "bootstrap.servers")
	source := "bootstrap.servers"
	if flagSet {
		bs, source = flag, "--bootstrap-server"
	} else if !fromProp {
		return nil
	}
	addrs, err := app.ParseBootstrap(bs)
	if err != nil {
		bad("%s: %v", source, err)
		return nil
	}
	return addrs
}

// setPerfProducerDefaults applies what perf-test imposes on every
// producer: byte-array serializers, whatever is configured (so configured
// ones are dropped and each driver uses its own), and its client.id
// unless one is given.
func setPerfProducerDefaults(props map[string]string) {
	delete(props, "key.serializer")
	delete(props, "value.serializer")
	if _, ok := props["client.id"]; !ok {
		props["client.id"] = perfClientID
	}
}

// setPerfTransactions enables transactions as perf-test does, on any of
// its three switches: --transactional-id (which wins over the property),
// --transaction-duration-ms, or a transactional.id property. Without an
// id it generates one (perfTxIDPrefix and a random suffix); the duration
// is the flag's, else perf-test's default.
func setPerfTransactions(f *perfFlags, changed func(string) bool, props map[string]string) {
	if f.transactionalID == "" && !changed("transaction-duration-ms") && props["transactional.id"] == "" {
		return
	}
	if f.transactionalID != "" {
		props["transactional.id"] = f.transactionalID
	}
	if props["transactional.id"] == "" {
		props["transactional.id"] = perfTxIDPrefix + randomID()
	}
	d := int64(perfTxDurationMs)
	if changed("transaction-duration-ms") {
		d = f.txDurationMs
	}
	props["transaction.duration.ms"] = fmt.Sprint(d)
}

// usePayloadFile makes the plan replay the payloads of file, split at
// delimiter (splitPayloadFile): the payload kind names the temporary file
// of payloads, the record size is 0 (fileSizes has each payload's), and
// cleanup removes that file's directory at the end of the run.
func (p *perfPlan) usePayloadFile(file, delimiter string) error {
	path, sizes, err := splitPayloadFile(file, delimiter)
	if err != nil {
		return err
	}
	p.payload = payload.KindFile + path
	p.fileSizes = sizes
	p.recordSize = 0
	p.cleanup = func() { _ = os.RemoveAll(filepath.Dir(path)) }
	return nil
}

// randomID is a random hex string for generated transactional ids.
func randomID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// redactArg hides the value of a NAME=VALUE argument whose name is secret.
func redactArg(kv string) string {
	if k, _, ok := strings.Cut(kv, "="); ok && isSecretKey(k) {
		return k + "=[hidden]"
	}
	return kv
}

// splitPayloadFile reads a --payload-file, splits it at the delimiter (a
// regular expression, as perf-test's Scanner uses it; the default "\n"
// matches a line end) and writes the non-empty payloads one per line to a
// temporary file in the form package payload replays. It returns that
// file's path and the payload sizes in order. perf-test picks a random
// payload per record; prodlab cycles them in order, which is reproducible
// and uses every payload.
func splitPayloadFile(path, delimiter string) (string, []int, error) {
	data, err := inputfile.ReadMax(path, payload.MaxFileSize) // never /dev/zero or a FIFO
	if err != nil {
		return "", nil, fmt.Errorf("--payload-file: %w", err)
	}
	if len(data) == 0 {
		return "", nil, fmt.Errorf("--payload-file %s is empty", path)
	}
	re, err := regexp.Compile(delimiter)
	if err != nil || delimiter == "" {
		return "", nil, fmt.Errorf("--payload-delimiter %q is not a valid delimiter pattern", delimiter)
	}
	var (
		out   strings.Builder
		sizes []int
	)
	for _, piece := range re.Split(string(data), -1) {
		piece = strings.TrimSuffix(piece, "\r")
		if piece == "" {
			continue
		}
		if strings.ContainsAny(piece, "\n\r") {
			return "", nil, fmt.Errorf("--payload-file %s: a payload contains a line break; prodlab's payloads cannot (use the default delimiter or one that splits at line ends)", path)
		}
		out.WriteString(piece)
		out.WriteByte('\n')
		sizes = append(sizes, len(piece))
	}
	if len(sizes) == 0 {
		return "", nil, fmt.Errorf("--payload-file %s: no payloads between delimiters", path)
	}
	dir, err := os.MkdirTemp("", "prodlab-perf-payload-")
	if err != nil {
		return "", nil, fmt.Errorf("payload file: %w", err)
	}
	tmp := filepath.Join(dir, "payloads.txt")
	if err := os.WriteFile(tmp, []byte(out.String()), 0o600); err != nil {
		_ = os.RemoveAll(dir)
		return "", nil, fmt.Errorf("payload file: %w", err)
	}
	return tmp, sizes, nil
}

// request is the plan as app runs it.
func (p *perfPlan) request() app.PerfRequest {
	return app.PerfRequest{
		Topic:      p.topic,
		Records:    p.records,
		Warmup:     p.warmup,
		RecordSize: p.recordSize,
		Payload:    p.payload,
		FileSizes:  p.fileSizes,
		Rate:       p.rate,
		Settings:   kafkaconf.Decode(p.props),
		Bootstrap:  p.bootstrap,
		Client:     p.client,
		Partitions: p.partitions,
		Timeout:    p.timeout,
	}
}
