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
	// conf is the typed view of the properties, parsed once.
	conf       kafkaconf.Producer
	idempotent bool
	txnID      string
	// sec collects the security properties (franz_security.go).
	sec franzSecurity
}

// franzProp maps one Java producer property to kgo options.
type franzProp func(v string, s *franzSettings) error

// franzProps lists every Java producer property franz-go can honour and how.
// Anything else is rejected by Check: a silently ignored setting would make a
// comparison lie.
var franzProps = map[string]franzProp{
	"acks": func(v string, s *franzSettings) error {
		switch v {
		case "all", "-1":
			s.opts = append(s.opts, kgo.RequiredAcks(kgo.AllISRAcks()))
		case "1":
			s.opts = append(s.opts, kgo.RequiredAcks(kgo.LeaderAck()))
		case "0":
			s.opts = append(s.opts, kgo.RequiredAcks(kgo.NoAck()))
		default:
			return fmt.Errorf("acks must be one of all, -1, 0, 1, got %q", v)
		}
		return nil
	},
	// enable.idempotence and max.in.flight.requests.per.connection are
	// read from s.conf once every property is checked (mapFranzProps).
	"enable.idempotence": func(v string, s *franzSettings) error {
		if !s.conf.EnableIdempotence.Set {
			return fmt.Errorf("enable.idempotence must be true or false, got %q", v)
		}
		return nil
	},
	"linger.ms":           durationProp(kgo.ProducerLinger),
	"delivery.timeout.ms": durationProp(kgo.RecordDeliveryTimeout),
	"request.timeout.ms":  durationProp(kgo.ProduceRequestTimeout),
	// kgo also has a minimum age between refreshes (default 5 s) and rejects
	// a maximum below it; Java has no minimum, so lower it along.
	"metadata.max.age.ms": func(v string, s *franzSettings) error {
		d, err := parseMs(v)
		if err != nil {
			return err
		}
		s.opts = append(s.opts, kgo.MetadataMaxAge(d), kgo.MetadataMinAge(min(d, 5*time.Second)))
		return nil
	},
	"retry.backoff.ms": func(v string, s *franzSettings) error {
		d, err := parseMs(v)
		if err != nil {
			return err
		}
		s.opts = append(s.opts, kgo.RetryBackoffFn(func(int) time.Duration { return d }))
		return nil
	},
	"batch.size":    intProp(func(n int) kgo.Opt { return kgo.ProducerBatchMaxBytes(int32(n)) }),
	"buffer.memory": intProp(func(n int) kgo.Opt { return kgo.MaxBufferedBytes(n) }),
	// max.buffered.records is prodlab's own key: franz-go bounds its buffer by
	// record count as well as bytes.
	"max.buffered.records": intProp(func(n int) kgo.Opt { return kgo.MaxBufferedRecords(n) }),
	"retries":              intProp(func(n int) kgo.Opt { return kgo.RecordRetries(n) }),
	kafkaconf.MaxInFlight: func(v string, s *franzSettings) error {
		if !s.conf.MaxInFlight.Set {
			return fmt.Errorf("must be a positive integer, got %q", v)
		}
		return nil
	},
	"compression.type": func(v string, s *franzSettings) error {
		c, ok := codecs[v]
		if !ok {
			return fmt.Errorf("compression.type must be one of none, gzip, snappy, lz4, zstd, got %q", v)
		}
		s.opts = append(s.opts, kgo.ProducerBatchCompression(c))
		return nil
	},
	"client.id": func(v string, s *franzSettings) error {
		s.opts = append(s.opts, kgo.ClientID(v))
		return nil
	},
	"partitioner.class": func(v string, s *franzSettings) error {
		switch v {
		case "", "org.apache.kafka.clients.producer.internals.DefaultPartitioner",
			"org.apache.kafka.clients.producer.UniformStickyPartitioner":
			s.opts = append(s.opts, kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil)))
		case "org.apache.kafka.clients.producer.RoundRobinPartitioner":
			s.opts = append(s.opts, kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
		default:
			return fmt.Errorf("partitioner.class %q has no franz-go equivalent (supported: RoundRobinPartitioner, UniformStickyPartitioner, DefaultPartitioner)", v)
		}
		return nil
	},
	"transactional.id": func(v string, s *franzSettings) error {
		s.txnID = v
		s.opts = append(s.opts, kgo.TransactionalID(v))
		return nil
	},
	"transaction.timeout.ms": durationProp(kgo.TransactionTimeout),
	// prodlab's transaction schedule (kafka-producer-perf-test's
	// transaction.duration.ms, and transaction.records and
	// transaction.abort.ratio): kafkaconf.Parse reads them, the driver's
	// txnSchedule keeps them.
	kafkaconf.TransactionDurationMs: typedTxnProp(func(p kafkaconf.Producer) bool { return p.TransactionDurationMs.Set }),
	kafkaconf.TransactionRecords:    typedTxnProp(func(p kafkaconf.Producer) bool { return p.TransactionRecords.Set }),
	kafkaconf.TransactionAbortRatio: typedTxnProp(func(p kafkaconf.Producer) bool { return p.TransactionAbortRatio.Set }),
	// partitioner.ignore.keys=true partitions keyed records as keyless
	// ones (Java's built-in partitioner does the same): sticky, switching
	// partition every 64 KiB, adaptive, keys not hashed.
	"partitioner.ignore.keys": func(v string, s *franzSettings) error {
		ignore, err := strconv.ParseBool(v)
		if err == nil && ignore {
			s.opts = append(s.opts, kgo.RecordPartitioner(kgo.UniformBytesPartitioner(64<<10, true, false, nil)))
		}
		return err
	},
	"key.serializer":   serializerProp,
	"value.serializer": serializerProp,
}

// franzHas reports whether franz-go's driver honours a setting.
func franzHas(name string) bool { _, ok := franzProps[name]; return ok }

// serializerProp accepts the byte-array serializers only: prodlab sends raw bytes.
func serializerProp(v string, _ *franzSettings) error {
	if v != "org.apache.kafka.common.serialization.ByteArraySerializer" {
		return fmt.Errorf("only org.apache.kafka.common.serialization.ByteArraySerializer is meaningful for raw payloads, got %q", v)
	}
	return nil
}

var codecs = map[string]kgo.CompressionCodec{
	"none":   kgo.NoCompression(),
	"gzip":   kgo.GzipCompression(),
	"snappy": kgo.SnappyCompression(),
	"lz4":    kgo.Lz4Compression(),
	"zstd":   kgo.ZstdCompression(),
}

func parseMs(v string) (time.Duration, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("must be a non-negative integer of milliseconds, got %q", v)
	}
	return time.Duration(n) * time.Millisecond, nil
}

func durationProp[O kgo.Opt](f func(time.Duration) O) franzProp {
	return func(v string, s *franzSettings) error {
		d, err := parseMs(v)
		if err != nil {
			return err
		}
		s.opts = append(s.opts, f(d))
		return nil
	}
}

func intProp[O kgo.Opt](f func(int) O) franzProp {
	return func(v string, s *franzSettings) error {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("must be a non-negative integer, got %q", v)
		}
		s.opts = append(s.opts, f(n))
		return nil
	}
}

// mapFranzProps turns Java producer properties into franz-go settings,
// applying the Java client's rules for implicit idempotence: it is on by
// default, and off when acks is not all and enable.idempotence is not set.
func mapFranzProps(props map[string]string) (*franzSettings, error) {
	s := &franzSettings{}
	// A bad value leaves its field unset; the property's own entry in
	// franzProps reports it, in the words of the other entries (and when
	// none does, the parse error itself is returned below).
	var parseErr error
	s.conf, parseErr = kafkaconf.Parse(props)
	keys := slices.Sorted(maps.Keys(props))
	var errs []string
	for _, k := range keys {
		f, ok := franzProps[k]
		if !ok {
			errs = append(errs, kafkaconf.RefuseFor(k, "franz-go", kafkaconf.Nearest(k, franzHas, slices.Sorted(maps.Keys(franzProps))), ""))
			continue
		}
		if err := f(strings.TrimSpace(props[k]), s); err != nil {
			errs = append(errs, fmt.Sprintf("producer property %s: %v", k, err))
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
	if parseErr != nil {
		return nil, parseErr
	}
	if err := s.settleIdempotence(); err != nil {
		return nil, err
	}
	return s, nil
}

// typedTxnProp accepts a transaction setting that kafkaconf.Parse read
// (set reports it), and reports the value Parse refused.
func typedTxnProp(set func(kafkaconf.Producer) bool) franzProp {
	return func(v string, s *franzSettings) error {
		if !set(s.conf) {
			return fmt.Errorf("%q is not a valid value (see the setting's documentation in docs/experiments.md)", v)
		}
		return nil
	}
}

// settleIdempotence decides idempotence by the Java client's rules (on by
// default; off, unless enable.idempotence says otherwise, when acks is not
// all or more than 5 requests may be in flight), refuses the combinations
// franz-go cannot run, and adds the in-flight limit of a non-idempotent
// producer.
func (s *franzSettings) settleIdempotence() error {
	c := s.conf
	s.idempotent = c.Idempotent(true) // franz-go's producer is idempotent by default, as Java's
	acksAll := c.AcksAll()
	switch {
	case s.idempotent && !acksAll:
		return fmt.Errorf("enable.idempotence=true requires acks=all, got acks=%s", c.Acks.V)
	case s.idempotent && c.MaxInFlight.Set && c.MaxInFlight.V != kafkaconf.IdempotentMaxInFlight:
		return fmt.Errorf("max.in.flight.requests.per.connection=%d with idempotence is not supported by client franz-go: "+
			"its idempotent producer always keeps 5 requests in flight per broker (set enable.idempotence=false to choose another limit)", c.MaxInFlight.V)
	case !s.idempotent && s.txnID != "":
		return fmt.Errorf("transactional.id requires enable.idempotence=true")
	}
	if !s.idempotent {
		s.opts = append(s.opts, kgo.DisableIdempotentWrite())
		n := c.MaxInFlight.Or(kafkaconf.JavaDefaults("").MaxInFlight) // the Java client's default
		s.opts = append(s.opts, kgo.MaxProduceRequestsInflightPerBroker(n))
	}
	return nil
}

// franzEffective reads back every setting the client actually uses, in Java
// property names, defaults included.
func franzEffective(cl *kgo.Client, s *franzSettings) map[string]string {
	ms := func(v any) string { return strconv.FormatInt(v.(time.Duration).Milliseconds(), 10) }
	eff := map[string]string{
		"linger.ms":            ms(cl.OptValue(kgo.ProducerLinger)),
		"delivery.timeout.ms":  ms(cl.OptValue(kgo.RecordDeliveryTimeout)),
		"request.timeout.ms":   ms(cl.OptValue(kgo.ProduceRequestTimeout)),
		"metadata.max.age.ms":  ms(cl.OptValue(kgo.MetadataMaxAge)),
		"batch.size":           fmt.Sprint(cl.OptValue(kgo.ProducerBatchMaxBytes)),
		"buffer.memory":        fmt.Sprint(cl.OptValue(kgo.MaxBufferedBytes)),
		"max.buffered.records": fmt.Sprint(cl.OptValue(kgo.MaxBufferedRecords)),
		"retries":              fmt.Sprint(cl.OptValue(kgo.RecordRetries)),
		"enable.idempotence":   strconv.FormatBool(s.idempotent),
		"client.id":            fmt.Sprint(cl.OptValue(kgo.ClientID)),
	}
	if eff["buffer.memory"] == "0" {
		eff["buffer.memory"] = "unbounded"
	}
	if s.idempotent {
		eff[kafkaconf.MaxInFlight] = strconv.Itoa(kafkaconf.FranzDefaults.MaxInFlight)
	} else {
		eff[kafkaconf.MaxInFlight] = fmt.Sprint(cl.OptValue(kgo.MaxProduceRequestsInflightPerBroker))
	}
	switch cl.OptValue(kgo.RequiredAcks) {
	case kgo.AllISRAcks():
		eff["acks"] = "all"
	case kgo.LeaderAck():
		eff["acks"] = "1"
	case kgo.NoAck():
		eff["acks"] = "0"
	}
	if cs, ok := cl.OptValue(kgo.ProducerBatchCompression).([]kgo.CompressionCodec); ok {
		names := make([]string, 0, len(cs))
		for _, c := range cs {
			for name, known := range codecs {
				if c == known {
					names = append(names, name)
				}
			}
		}
		eff["compression.type"] = strings.Join(names, ",")
	}
	if s.sec.protocol != "" {
		eff["security.protocol"] = s.sec.protocol
	}
	if s.txnID != "" {
		eff["transactional.id"] = s.txnID
		tx := s.conf.Transactions()
		eff[kafkaconf.TransactionDurationMs] = strconv.FormatInt(tx.Every, 10)
		eff[kafkaconf.TransactionRecords] = strconv.FormatInt(tx.Records, 10)
		eff[kafkaconf.TransactionAbortRatio] = strconv.FormatFloat(tx.AbortRatio, 'g', -1, 64)
	}
	return eff
}
