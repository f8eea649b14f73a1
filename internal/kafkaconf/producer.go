package kafkaconf

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Opt is a setting's value and whether it was set at all, for settings
// whose absence means something (a client default, or a rule that applies
// only to an explicit value).
type Opt[T any] struct {
	V   T
	Set bool
}

// Or returns the value when set, else def.
func (o Opt[T]) Or(def T) T {
	if o.Set {
		return o.V
	}
	return def
}

// Producer is the typed view of the producer settings prodlab interprets,
// parsed once from the Java property map.
type Producer struct {
	// Acks is "all", "1" or "0"; "-1" reads as "all".
	Acks              Opt[string]
	EnableIdempotence Opt[bool]
	MaxInFlight       Opt[int]
	BatchSize         Opt[int]
	CompressionType   Opt[string]
	MaxRequestSize    Opt[int]
	// BatchNumMessages is librdkafka's bound of a batch in records
	// (batch.num.messages); the other clients have none.
	BatchNumMessages Opt[int]
	// RequestTimeoutMs is request.timeout.ms.
	RequestTimeoutMs Opt[int64]
	// SecurityProtocol is security.protocol in upper case (librdkafka
	// takes lower case too).
	SecurityProtocol Opt[string]
	// TransactionalID is "" when the producer is not transactional.
	TransactionalID string
	// TransactionTimeoutMs is transaction.timeout.ms: how long the
	// coordinator lets a transaction stay open before it aborts it.
	TransactionTimeoutMs Opt[int64]
	// TransactionDurationMs, TransactionRecords and TransactionAbortRatio
	// are prodlab's transaction schedule (see Transactions).
	TransactionDurationMs Opt[int64]
	TransactionRecords    Opt[int64]
	TransactionAbortRatio Opt[float64]
}

// Idempotent says whether a producer of these settings is idempotent, by
// the Java client's rules (franz-go's driver follows them; librdkafka's
// own differ only in its default): enable.idempotence when written; else
// byDefault (the client's default), turned off when acks is not all or
// more than IdempotentMaxInFlight requests may be in flight. The one
// statement of the rule: expfile, the drivers, the advisor and the pipe
// model ask it here.
func (p Producer) Idempotent(byDefault bool) bool {
	if p.EnableIdempotence.Set {
		return p.EnableIdempotence.V
	}
	return byDefault && p.AcksAll() && (!p.MaxInFlight.Set || p.MaxInFlight.V <= IdempotentMaxInFlight)
}

// AcksAll says whether the producer waits for all in-sync replicas: acks
// all or -1, or unset (the default since Kafka 3.0).
func (p Producer) AcksAll() bool { return !p.Acks.Set || p.Acks.V == "all" }

// Parse reads the settings of Producer from props (values trimmed of
// spaces). Settings not in Producer are ignored. A bad value is a
// *SettingError naming the setting and the value (errors.Join of one per
// setting); the settings that parsed are filled even then, so a caller
// reading one setting can ignore the others.
func Parse(props map[string]string) (Producer, error) {
	var p Producer
	var errs []error
	read := map[string]string{} // each setting's key as written: its own name or librdkafka's
	get := func(name string) (string, bool) {
		v, ok := props[name]
		read[name] = name
		if !ok { // librdkafka's name for the same setting
			for _, alias := range librdkafkaAliases[name] {
				if v, ok = props[alias]; ok {
					read[name] = alias
					break
				}
			}
		}
		return strings.TrimSpace(v), ok
	}
	fail := func(name, v, want string) {
		errs = append(errs, &SettingError{Key: read[name], Msg: fmt.Sprintf("%s must be %s, got %q", name, want, v)})
	}
	if v, ok := get(Acks); ok {
		switch v {
		case "all", "-1":
			p.Acks = Opt[string]{"all", true}
		case "0", "1":
			p.Acks = Opt[string]{v, true}
		default:
			fail(Acks, v, "one of all, -1, 0, 1")
		}
	}
	if v, ok := get(EnableIdempotence); ok {
		if b, err := parseBool(v); err == nil {
			p.EnableIdempotence = Opt[bool]{b, true}
		} else {
			fail(EnableIdempotence, v, "true or false")
		}
	}
	if v, ok := get(MaxInFlight); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 1 {
			p.MaxInFlight = Opt[int]{n, true}
		} else {
			fail(MaxInFlight, v, "a positive integer")
		}
	}
	parseInt(get, fail, BatchSize, &p.BatchSize)
	parseInt(get, fail, MaxRequestSize, &p.MaxRequestSize)
	parseInt(get, fail, BatchNumMessages, &p.BatchNumMessages)
	// linger.ms and buffer.memory are checked here, and read by no one
	// as numbers: the clients take them as written.
	var unread Opt[int64]
	parseInt64(get, fail, LingerMs, &unread)
	parseInt64(get, fail, BufferMemory, &unread)
	if v, ok := get(CompressionType); ok {
		p.CompressionType = Opt[string]{v, true}
	}
	parseInt64(get, fail, RequestTimeoutMs, &p.RequestTimeoutMs)
	if v, ok := get(SecurityProtocol); ok {
		p.SecurityProtocol = Opt[string]{strings.ToUpper(v), true}
	}
	if v, ok := get(TransactionalID); ok {
		switch {
		case v == "":
			fail(TransactionalID, v, "a name (leave it out for a producer without transactions)")
		case len(v) > MaxTransactionalIDBytes:
			errs = append(errs, &SettingError{Key: TransactionalID, Msg: fmt.Sprintf("%s is %d bytes long, more than the %d Kafka's protocol leaves room for beside prodlab's suffixes", TransactionalID, len(v), MaxTransactionalIDBytes)})
		default:
			p.TransactionalID = v
		}
	}
	parseInt64(get, fail, TransactionTimeoutMs, &p.TransactionTimeoutMs)
	parsePositive(get, fail, TransactionDurationMs, maxTransactionDurationMs, &p.TransactionDurationMs)
	parsePositive(get, fail, TransactionRecords, maxTransactionRecords, &p.TransactionRecords)
	if v, ok := get(TransactionAbortRatio); ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil && decimal.MatchString(v) && f >= 0 && f <= 1 {
			p.TransactionAbortRatio = Opt[float64]{f, true}
		} else {
			fail(TransactionAbortRatio, v, "a share of transactions between 0 and 1")
		}
	}
	return p, errors.Join(errs...)
}

// ParseValid is Parse for settings already checked (by expfile, or by the
// driver's Check), or rendered whatever they hold: the settings that
// parse, a bad one left unset. It is the one way to read settings without
// their error, and says so where it is called.
func ParseValid(props map[string]string) Producer {
	p, _ := Parse(props)
	return p
}

// parseBool reads a boolean as the Java client does (true or false in any
// case) and as Go does (1, t, 0, f…) for Parse's own callers; Read refuses
// the Go forms first, as the Java client does.
func parseBool(v string) (bool, error) {
	switch {
	case strings.EqualFold(v, "true"):
		return true, nil
	case strings.EqualFold(v, "false"):
		return false, nil
	}
	return strconv.ParseBool(v)
}

// parseInt fills dst from the non-negative int setting name, if set.
func parseInt(get func(string) (string, bool), fail func(name, v, want string), name string, dst *Opt[int]) {
	if v, ok := get(name); ok {
		if n, err := strconv.Atoi(v); err == nil && n >= 0 {
			*dst = Opt[int]{n, true}
		} else {
			fail(name, v, "a non-negative integer")
		}
	}
}

// parseInt64 fills dst from the non-negative long setting name, if set.
func parseInt64(get func(string) (string, bool), fail func(name, v, want string), name string, dst *Opt[int64]) {
	if v, ok := get(name); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n >= 0 {
			*dst = Opt[int64]{n, true}
		} else {
			fail(name, v, "a non-negative integer")
		}
	}
}

// parsePositive fills dst from the positive long setting name, if set.
func parsePositive(get func(string) (string, bool), fail func(name, v, want string), name string, most int64, dst *Opt[int64]) {
	if v, ok := get(name); ok {
		if n, err := strconv.ParseInt(v, 10, 64); err == nil && n > 0 && n <= most {
			*dst = Opt[int64]{n, true}
		} else {
			fail(name, v, fmt.Sprintf("a positive integer of at most %d", most))
		}
	}
}

// MaxTransactionalIDBytes bounds a transactional.id: Kafka's protocol
// carries it as a string of at most 32,767 bytes, and prodlab appends a
// suffix per trial and producer (SuffixedTransactionalID).
const MaxTransactionalIDBytes = 32_000

// decimal is a fraction in decimal notation ("0.25", ".5", "1.", "1e-1"),
// the form every worker's parser reads alike; Go's ParseFloat also takes
// hex floats, infinities and underscores, which a worker's need not.
var decimal = regexp.MustCompile(`^[+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$`)

// The bounds of prodlab's transaction schedule: a week (workload.timeout.s's
// bound), so that a duration never wraps when it becomes nanoseconds (one
// near 2^64/10^6 committed 43 times in 2 s), and a trial's most records.
const (
	maxTransactionDurationMs = 7 * 24 * 3600 * 1000
	maxTransactionRecords    = 1_000_000_000
)

// TransactionConflict is the contradiction of a transactional producer
// that every client release refuses: transactions need idempotence, so
// enable.idempotence=false, and acks other than all (idempotence needs
// it), cannot go with a transactional.id. nil when there is none.
func (p Producer) TransactionConflict() error {
	switch {
	case p.TransactionalID == "":
		for _, name := range TransactionSettings {
			if p.transactionSet(name) {
				return fmt.Errorf("%s applies to a transactional producer: set transactional.id (or remove %s)", name, name)
			}
		}
		return nil
	case p.EnableIdempotence.Set && !p.EnableIdempotence.V:
		return fmt.Errorf("transactional.id requires idempotence, but enable.idempotence=false")
	case !p.AcksAll():
		return fmt.Errorf("transactional.id requires idempotence, which requires acks=all (or -1), got acks=%s", p.Acks.V)
	}
	return nil
}

// transactionSet says whether the transaction setting name was written.
func (p Producer) transactionSet(name string) bool {
	switch name {
	case TransactionDurationMs:
		return p.TransactionDurationMs.Set
	case TransactionRecords:
		return p.TransactionRecords.Set
	case TransactionAbortRatio:
		return p.TransactionAbortRatio.Set
	}
	return false
}

// DefaultTransactionDurationMs is the commit interval of a transactional
// producer that sets neither transaction.duration.ms nor
// transaction.records (kafka-producer-perf-test's default).
const DefaultTransactionDurationMs = 3000

// Transactions is a transactional producer's schedule: a transaction ends
// after Every (0: no time bound) or Records records (0: no count bound),
// whichever comes first, and AbortRatio of them end in an abort.
type Transactions struct {
	Every      int64 // ms
	Records    int64
	AbortRatio float64
}

// Transactions returns the schedule of a transactional producer: the
// written bounds, or transaction.duration.ms's default when neither is.
func (p Producer) Transactions() Transactions {
	t := Transactions{Every: p.TransactionDurationMs.V, Records: p.TransactionRecords.V, AbortRatio: p.TransactionAbortRatio.V}
	if !p.TransactionDurationMs.Set && !p.TransactionRecords.Set {
		t.Every = DefaultTransactionDurationMs
	}
	return t
}

// IdempotentMaxInFlight is the most requests in flight per connection the
// Java producer allows with idempotence (ProducerConfig's check), which
// franz-go's idempotent producer keeps fixed.
const IdempotentMaxInFlight = 5

// Defaults are a client's values for settings left unset, where prodlab
// needs them (models, effective-config reports, checks).
type Defaults struct {
	// MaxInFlight is the default of max.in.flight.requests.per.connection
	// of an idempotent producer; MaxInFlightPlain of one without
	// idempotence (0: the same).
	MaxInFlight      int
	MaxInFlightPlain int
	// CompressionType is the default compression.type.
	CompressionType string
	BatchSize       int
	LingerMs        int64
	// MaxRequestSize is 0 for a client without that setting.
	MaxRequestSize int
	// TransactionTimeoutMs is the default transaction.timeout.ms.
	TransactionTimeoutMs int64
}

// JavaDefaults are the Java producer's defaults for the kafka-clients
// release (major.minor…; "" for the newest): linger.ms is 5 since 4.0
// (KIP-1030) and 0 before.
func JavaDefaults(release string) Defaults {
	d := Defaults{MaxInFlight: 5, BatchSize: 16384, LingerMs: 5, MaxRequestSize: 1 << 20, CompressionType: "none", TransactionTimeoutMs: 60000}
	if major, _, ok := strings.Cut(release, "."); ok {
		if n, err := strconv.Atoi(major); err == nil && n < 4 {
			d.LingerMs = 0
		}
	}
	return d
}

// FranzDefaults are the franz-go driver's effective values in Java terms
// (as its effective-config report gives them): 5 requests in flight (fixed
// when idempotent), a batch limit of 1 MiB (the driver's
// ProducerBatchMaxBytes, which batch.size sets and which also bounds one
// record; franz-go has no max.request.size), kgo's linger of 10 ms and its
// transaction timeout of 40 s.
var FranzDefaults = Defaults{MaxInFlight: 5, BatchSize: 1 << 20, LingerMs: 10, CompressionType: "snappy", TransactionTimeoutMs: 40000}

// LibrdkafkaDefaults are librdkafka's producer defaults in Java terms (its
// CONFIGURATION.md): linger.ms 5, batch.size 1,000,000 bytes (and at most
// batch.num.messages 10,000 records), message.max.bytes 1,000,000 as the
// request limit, and 5 requests in flight, the most its idempotent producer
// allows (1,000,000 without idempotence, which is off by default), and a
// transaction timeout of 60 s.
var LibrdkafkaDefaults = Defaults{MaxInFlight: 5, MaxInFlightPlain: 1000000, BatchSize: 1000000, LingerMs: 5, MaxRequestSize: 1000000, CompressionType: "none", TransactionTimeoutMs: 60000}

// InFlight is the requests in flight per connection a producer of these
// defaults runs: max.in.flight.requests.per.connection when set, else the
// default for an idempotent producer or one without idempotence.
func (d Defaults) InFlight(p Producer, idempotent bool) int {
	if p.MaxInFlight.Set {
		return p.MaxInFlight.V
	}
	if !idempotent && d.MaxInFlightPlain > 0 {
		return d.MaxInFlightPlain
	}
	return d.MaxInFlight
}
