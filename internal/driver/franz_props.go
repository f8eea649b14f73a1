package driver

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// franzSettings is the outcome of mapping Java producer properties onto
// franz-go: the kgo options plus what the driver itself must do.
type franzSettings struct {
	opts []kgo.Opt
	// conf is the typed view of the properties, read once.
	conf       kafkaconf.Producer
	idempotent bool
	txnID      string
	// sec collects the security properties (franz_security.go).
	sec franzSecurity
}

// franzRow is how franz-go's driver takes one Java producer property,
// from its value as kafkaconf read it: apply adds its kgo options (nil:
// the property is read from the typed view, as idempotence is); text
// writes those options as Go code a franz-go user pastes (franzText); read
// gives the client's effective value back in Java terms (nil: none is
// reported; ok false: not this time).
type franzRow struct {
	apply func(v kafkaconf.Value, s *franzSettings) error
	text  franzText
	read  func(cl *kgo.Client, s *franzSettings) (string, bool)
}

// franzTable is every Java producer property franz-go can honour, and
// how: the producer's own here, the security group beside them
// (franz_security.go). Anything else is refused by Check: a silently
// ignored setting would make a comparison lie.
var franzTable = joinRows(franzProducerRows, franzSecurityRows)

// joinRows is the union of tables whose keys do not overlap.
func joinRows(tables ...map[string]franzRow) map[string]franzRow {
	out := map[string]franzRow{}
	for _, t := range tables {
		for k, r := range t {
			out[k] = r
		}
	}
	return out
}

// franzProducerRows are the producer's own properties.
var franzProducerRows = map[string]franzRow{
	kafkaconf.Acks: {
		apply: func(v kafkaconf.Value, s *franzSettings) error {
			acks, ok := franzAcks[v.Text()]
			if !ok {
				return fmt.Errorf("acks must be one of all, -1, 0, 1, got %q", v.Text())
			}
			s.opts = append(s.opts, kgo.RequiredAcks(acks))
			return nil
		},
		text: func(v kafkaconf.Value, _ franzTextCtx) string { return "kgo.RequiredAcks(" + acksTexts[v.Text()] + ")" },
		read: func(cl *kgo.Client, _ *franzSettings) (string, bool) {
			for _, name := range []string{"all", "1", "0"} {
				if cl.OptValue(kgo.RequiredAcks) == franzAcks[name] {
					return name, true
				}
			}
			return "", false
		},
	},
	// enable.idempotence and max.in.flight.requests.per.connection decide
	// idempotence together, from the typed view (decideIdempotence).
	kafkaconf.EnableIdempotence: {
		text: func(_ kafkaconf.Value, c franzTextCtx) string {
			if c.idempotent {
				return "(default: idempotent writes on)"
			}
			return "kgo.DisableIdempotentWrite()"
		},
		read: func(_ *kgo.Client, s *franzSettings) (string, bool) { return strconv.FormatBool(s.idempotent), true },
	},
	kafkaconf.MaxInFlight: {
		text: inFlightText,
		read: func(cl *kgo.Client, s *franzSettings) (string, bool) {
			if s.idempotent {
				return strconv.Itoa(kafkaconf.FranzDefaults.MaxInFlight), true
			}
			return fmt.Sprint(cl.OptValue(kgo.MaxProduceRequestsInflightPerBroker)), true
		},
	},
	kafkaconf.LingerMs:       msRow(kgo.ProducerLinger, "kgo.ProducerLinger", true),
	"delivery.timeout.ms":    msRow(kgo.RecordDeliveryTimeout, "kgo.RecordDeliveryTimeout", true),
	"request.timeout.ms":     msRow(kgo.ProduceRequestTimeout, "kgo.ProduceRequestTimeout", true),
	"transaction.timeout.ms": msRow(kgo.TransactionTimeout, "kgo.TransactionTimeout", false),
	// kgo also has a minimum age between refreshes (default 5 s) and rejects
	// a maximum below it; Java has no minimum, so lower it along.
	"metadata.max.age.ms": {
		apply: func(v kafkaconf.Value, s *franzSettings) error {
			d := v.Duration()
			s.opts = append(s.opts, kgo.MetadataMaxAge(d), kgo.MetadataMinAge(min(d, 5*time.Second)))
			return nil
		},
		text: func(v kafkaconf.Value, _ franzTextCtx) string {
			d := v.Duration()
			return "kgo.MetadataMaxAge(" + goMs(d) + "), kgo.MetadataMinAge(" + goMs(min(d, 5*time.Second)) + ")"
		},
		read: func(cl *kgo.Client, _ *franzSettings) (string, bool) {
			return optMs(cl.OptValue(kgo.MetadataMaxAge)), true
		},
	},
	"retry.backoff.ms": {
		apply: func(v kafkaconf.Value, s *franzSettings) error {
			d := v.Duration()
			s.opts = append(s.opts, kgo.RetryBackoffFn(func(int) time.Duration { return d }))
			return nil
		},
		text: func(v kafkaconf.Value, _ franzTextCtx) string {
			return "kgo.RetryBackoffFn(func(int) time.Duration { return " + goMs(v.Duration()) + " })"
		},
	},
	kafkaconf.BatchSize: intRow(func(n int) kgo.ProducerOpt { return kgo.ProducerBatchMaxBytes(int32(n)) }, kgo.ProducerBatchMaxBytes, "kgo.ProducerBatchMaxBytes"),
	kafkaconf.BufferMemory: func() franzRow {
		r := intRow(kgo.MaxBufferedBytes, kgo.MaxBufferedBytes, "kgo.MaxBufferedBytes")
		r.read = func(cl *kgo.Client, _ *franzSettings) (string, bool) {
			if n := fmt.Sprint(cl.OptValue(kgo.MaxBufferedBytes)); n != "0" {
				return n, true
			}
			return "unbounded", true
		}
		return r
	}(),
	// max.buffered.records is prodlab's own key: franz-go bounds its buffer by
	// record count as well as bytes.
	kafkaconf.MaxBufferedRecords: intRow(kgo.MaxBufferedRecords, kgo.MaxBufferedRecords, "kgo.MaxBufferedRecords"),
	"retries":                    intRow(kgo.RecordRetries, kgo.RecordRetries, "kgo.RecordRetries"),
	kafkaconf.CompressionType: {
		apply: func(v kafkaconf.Value, s *franzSettings) error {
			c, ok := codecs[v.Text()]
			if !ok {
				return fmt.Errorf("compression.type must be one of none, gzip, snappy, lz4, zstd, got %q", v.Text())
			}
			s.opts = append(s.opts, kgo.ProducerBatchCompression(c))
			return nil
		},
		text: func(v kafkaconf.Value, _ franzTextCtx) string {
			return "kgo.ProducerBatchCompression(" + codecTexts[v.Text()] + ")"
		},
		read: func(cl *kgo.Client, _ *franzSettings) (string, bool) {
			cs, ok := cl.OptValue(kgo.ProducerBatchCompression).([]kgo.CompressionCodec)
			if !ok {
				return "", false
			}
			names := make([]string, 0, len(cs))
			for _, c := range cs {
				for name, known := range codecs {
					if c == known {
						names = append(names, name)
					}
				}
			}
			return strings.Join(names, ","), true
		},
	},
	"client.id": {
		apply: func(v kafkaconf.Value, s *franzSettings) error {
			s.opts = append(s.opts, kgo.ClientID(v.Text()))
			return nil
		},
		text: func(v kafkaconf.Value, _ franzTextCtx) string { return "kgo.ClientID(" + strconv.Quote(v.Text()) + ")" },
		read: func(cl *kgo.Client, _ *franzSettings) (string, bool) {
			return fmt.Sprint(cl.OptValue(kgo.ClientID)), true
		},
	},
	"partitioner.class": {
		apply: func(v kafkaconf.Value, s *franzSettings) error {
			switch v.Text() {
			case "", "org.apache.kafka.clients.producer.internals.DefaultPartitioner",
				"org.apache.kafka.clients.producer.UniformStickyPartitioner":
				s.opts = append(s.opts, kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil)))
			case "org.apache.kafka.clients.producer.RoundRobinPartitioner":
				s.opts = append(s.opts, kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
			default:
				return fmt.Errorf("partitioner.class %q has no franz-go equivalent (supported: RoundRobinPartitioner, UniformStickyPartitioner, DefaultPartitioner)", v.Text())
			}
			return nil
		},
		text: func(v kafkaconf.Value, _ franzTextCtx) string {
			if v.Text() == "org.apache.kafka.clients.producer.RoundRobinPartitioner" {
				return "kgo.RecordPartitioner(kgo.RoundRobinPartitioner())"
			}
			return "kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil))"
		},
	},
	kafkaconf.TransactionalID: {
		apply: func(v kafkaconf.Value, s *franzSettings) error {
			s.txnID = v.Text()
			s.opts = append(s.opts, kgo.TransactionalID(v.Text()))
			return nil
		},
		text: func(v kafkaconf.Value, _ franzTextCtx) string {
			return "kgo.TransactionalID(" + strconv.Quote(v.Text()) + ")"
		},
		read: func(_ *kgo.Client, s *franzSettings) (string, bool) { return s.txnID, s.txnID != "" },
	},
	// prodlab's transaction schedule (kafka-producer-perf-test's
	// transaction.duration.ms, and transaction.records and
	// transaction.abort.ratio): the typed view holds them, the driver's
	// txnSchedule keeps them.
	kafkaconf.TransactionDurationMs: {
		text: func(v kafkaconf.Value, _ franzTextCtx) string {
			return fmt.Sprintf("(no kgo option: prodlab commits each transaction after %d ms)", v.Int())
		},
		read: txnRead(func(t kafkaconf.Transactions) string { return strconv.FormatInt(t.Every, 10) }),
	},
	kafkaconf.TransactionRecords: {
		text: func(v kafkaconf.Value, _ franzTextCtx) string {
			return "(no kgo option: prodlab ends each transaction after " + v.Text() + " records)"
		},
		read: txnRead(func(t kafkaconf.Transactions) string { return strconv.FormatInt(t.Records, 10) }),
	},
	kafkaconf.TransactionAbortRatio: {
		text: func(v kafkaconf.Value, _ franzTextCtx) string {
			return "(no kgo option: prodlab aborts this share of its transactions: " + v.Text() + ")"
		},
		read: txnRead(func(t kafkaconf.Transactions) string { return strconv.FormatFloat(t.AbortRatio, 'g', -1, 64) }),
	},
	// partitioner.ignore.keys=true partitions keyed records as keyless
	// ones (Java's built-in partitioner does the same): sticky, switching
	// partition every 64 KiB, adaptive, keys not hashed.
	"partitioner.ignore.keys": {
		apply: func(v kafkaconf.Value, s *franzSettings) error {
			if v.Bool() {
				s.opts = append(s.opts, kgo.RecordPartitioner(kgo.UniformBytesPartitioner(64<<10, true, false, nil)))
			}
			return nil
		},
		text: func(v kafkaconf.Value, _ franzTextCtx) string {
			if v.Bool() {
				return "kgo.RecordPartitioner(kgo.UniformBytesPartitioner(64<<10, true, false, nil))"
			}
			return "(default: keys choose the partition)"
		},
	},
	"key.serializer":   serializerRow,
	"value.serializer": serializerRow,
}

// franzHas reports whether franz-go's driver honours a setting.
func franzHas(name string) bool { _, ok := franzTable[name]; return ok }

// serializerRow accepts the byte-array serializers only: prodlab sends raw
// bytes.
var serializerRow = franzRow{
	apply: func(v kafkaconf.Value, _ *franzSettings) error {
		if v.Text() != "org.apache.kafka.common.serialization.ByteArraySerializer" {
			return fmt.Errorf("only org.apache.kafka.common.serialization.ByteArraySerializer is meaningful for raw payloads, got %q", v.Text())
		}
		return nil
	},
	text: func(kafkaconf.Value, franzTextCtx) string {
		return "(no kgo option: franz-go sends the bytes as they are)"
	},
}

// franzAcks are kgo's acks of the Java values.
var franzAcks = map[string]kgo.Acks{
	"all": kgo.AllISRAcks(),
	"-1":  kgo.AllISRAcks(),
	"1":   kgo.LeaderAck(),
	"0":   kgo.NoAck(),
}

var codecs = map[string]kgo.CompressionCodec{
	"none":   kgo.NoCompression(),
	"gzip":   kgo.GzipCompression(),
	"snappy": kgo.SnappyCompression(),
	"lz4":    kgo.Lz4Compression(),
	"zstd":   kgo.ZstdCompression(),
}

// msRow is the row of a property of milliseconds that is one kgo option
// of a duration, named name for its text; readBack reports the client's
// value.
func msRow[O kgo.Opt](f func(time.Duration) O, name string, readBack bool) franzRow {
	r := franzRow{
		apply: func(v kafkaconf.Value, s *franzSettings) error {
			s.opts = append(s.opts, f(v.Duration()))
			return nil
		},
		text: func(v kafkaconf.Value, _ franzTextCtx) string { return name + "(" + goMs(v.Duration()) + ")" },
	}
	if readBack {
		r.read = func(cl *kgo.Client, _ *franzSettings) (string, bool) { return optMs(cl.OptValue(f)), true }
	}
	return r
}

// intRow is the row of an integer property that is one kgo option, named
// name for its text, whose value the client reports.
func intRow[O kgo.Opt, F any](f func(int) O, opt F, name string) franzRow {
	return franzRow{
		apply: func(v kafkaconf.Value, s *franzSettings) error {
			s.opts = append(s.opts, f(int(v.Int())))
			return nil
		},
		text: func(v kafkaconf.Value, _ franzTextCtx) string {
			return name + "(" + strconv.FormatInt(v.Int(), 10) + ")"
		},
		read: func(cl *kgo.Client, _ *franzSettings) (string, bool) { return fmt.Sprint(cl.OptValue(opt)), true },
	}
}

// txnRead reads back one figure of a transactional producer's schedule.
func txnRead(f func(kafkaconf.Transactions) string) func(*kgo.Client, *franzSettings) (string, bool) {
	return func(_ *kgo.Client, s *franzSettings) (string, bool) {
		if s.txnID == "" {
			return "", false
		}
		return f(s.conf.Transactions()), true
	}
}

// optMs writes a kgo option's duration as whole milliseconds.
func optMs(v any) string { return strconv.FormatInt(v.(time.Duration).Milliseconds(), 10) }

// mapFranzProps turns Java producer properties into franz-go settings,
// applying the Java client's rules for implicit idempotence: it is on by
// default, and off when acks is not all and enable.idempotence is not set.
// Every property was read once (kafkaconf.Decode); a refused one is named
// by its key, as is a property franz-go has no equivalent for.
func mapFranzProps(st kafkaconf.Settings) (*franzSettings, error) {
	refused := map[string]string{}
	for _, se := range kafkaconf.SettingErrors(st.Err()) {
		refused[se.Key] = se.Error()
	}
	s := &franzSettings{conf: st.Producer}
	var errs []string
	for _, k := range st.Keys() {
		row, ok := franzTable[k]
		v, read := st.Value(k)
		switch {
		case !ok:
			errs = append(errs, kafkaconf.RefuseFor(k, "franz-go", kafkaconf.Nearest(k, franzHas, slices.Sorted(maps.Keys(franzTable))), ""))
		case !read:
			errs = append(errs, "producer property "+refused[k])
		case row.apply != nil:
			if err := row.apply(v, s); err != nil {
				errs = append(errs, fmt.Sprintf("producer property %s: %v", k, err))
			}
		}
	}
	if secOpts, err := s.sec.opts(); err != nil {
		errs = append(errs, err.Error())
	} else {
		s.opts = append(s.opts, secOpts...)
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	s.decideIdempotence()
	if err := s.idempotenceConflict(); err != nil {
		return nil, err
	}
	return s, nil
}

// decideIdempotence decides idempotence by the Java client's rules (on by
// default; off, unless enable.idempotence says otherwise, when acks is not
// all or more than 5 requests may be in flight) and adds the options of a
// producer without it: idempotent writes off, and its in-flight limit.
func (s *franzSettings) decideIdempotence() {
	c := s.conf
	s.idempotent = c.Idempotent(true) // franz-go's producer is idempotent by default, as Java's
	if !s.idempotent {
		s.opts = append(s.opts, kgo.DisableIdempotentWrite())
		n := c.MaxInFlight.Or(kafkaconf.JavaDefaults("").MaxInFlight) // the Java client's default
		s.opts = append(s.opts, kgo.MaxProduceRequestsInflightPerBroker(n))
	}
}

// idempotenceConflict is the combination, as decideIdempotence decided
// it, that franz-go cannot run; nil when there is none.
func (s *franzSettings) idempotenceConflict() error {
	c := s.conf
	switch {
	case s.idempotent && !c.AcksAll():
		return fmt.Errorf("enable.idempotence=true requires acks=all, got acks=%s", c.Acks.V)
	case s.idempotent && c.MaxInFlight.Set && c.MaxInFlight.V != kafkaconf.IdempotentMaxInFlight:
		return fmt.Errorf("max.in.flight.requests.per.connection=%d with idempotence is not supported by client franz-go: "+
			"its idempotent producer always keeps 5 requests in flight per broker (set enable.idempotence=false to choose another limit)", c.MaxInFlight.V)
	case !s.idempotent && s.txnID != "":
		return fmt.Errorf("transactional.id requires enable.idempotence=true")
	}
	return nil
}

// franzEffective reads back every setting the client actually uses, in Java
// property names, defaults included: each row's read.
func franzEffective(cl *kgo.Client, s *franzSettings) map[string]string {
	eff := map[string]string{}
	for k, row := range franzTable {
		if row.read == nil {
			continue
		}
		if v, ok := row.read(cl, s); ok {
			eff[k] = v
		}
	}
	return eff
}
