package driver

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/secret"
)

// FranzOption is the franz-go (kgo) option that prodlab's franz-go driver
// makes of the Java producer property key set to value, written as Go code
// a franz-go user pastes into kgo.NewClient (linger.ms=5 gives
// "kgo.ProducerLinger(5 * time.Millisecond)"), so that a recommended
// producer file can show the franz-go names beside the Java ones.
//
// The property is read alone, as if it were the only one set; a whole file
// is FranzOptions's, since acks, enable.idempotence and
// max.in.flight.requests.per.connection decide idempotence together. ok is
// false when there is nothing to paste: the text is then a note in
// parentheses for a property the driver takes with no option of its own
// (enable.idempotence=true gives "(default: idempotent writes on)"), or ""
// for a key or value the driver refuses. A secret's value (secret.IsKey)
// never appears in the text.
func FranzOption(key, value string) (string, bool) {
	text := FranzOptions(map[string]string{key: value})[key]
	return text, text != "" && !strings.HasPrefix(text, "(")
}

// FranzOptions is FranzOption for every property of one producer file,
// read together as mapFranzProps reads them: idempotence is decided by the
// Java client's rules (settleIdempotence), and the options that decision
// brings (kgo.DisableIdempotentWrite, Java's default of 5 requests in
// flight) stand beside the property that decided it, once, so that the
// texts pasted together are the driver's options. Every key of props is in
// the result, "" for a key or value the driver refuses on its own. It
// renders and does not check combinations (transactional.id with
// enable.idempotence=false, a truststore file): Check does.
func FranzOptions(props map[string]string) map[string]string {
	s := &franzSettings{}
	s.conf = kafkaconf.ParseValid(props) // rendered, not checked: Check reports a bad value
	valid := make(map[string]string, len(props))
	for k, v := range props {
		v = strings.TrimSpace(v)
		if apply, ok := franzProps[k]; ok && apply(v, s) == nil {
			valid[k] = v
		}
	}
	// A refused combination still decides s.idempotent (Check reports it).
	_ = s.settleIdempotence()
	c := franzTextCtx{
		idempotent: s.idempotent,
		protocol:   s.sec.protocol,
		mechanism:  s.sec.mechanism,
		trustType:  s.sec.trustType,
	}
	out := make(map[string]string, len(props))
	for k := range props {
		v, ok := valid[k]
		text := franzTexts[k]
		if !ok || text == nil {
			out[k] = ""
			continue
		}
		if secret.IsKey(k) {
			v = secret.Hidden
		}
		out[k] = text(v, c)
	}
	if !s.idempotent {
		addIdempotenceOff(out, s.conf)
	}
	return out
}

// addIdempotenceOff adds to out what settleIdempotence adds for a producer
// that is not idempotent: kgo.DisableIdempotentWrite beside the property
// that turned idempotence off (enable.idempotence=false renders it
// itself), and Java's default in-flight limit when the file sets none,
// since kgo's own default without idempotence is 1.
func addIdempotenceOff(out map[string]string, c kafkaconf.Producer) {
	var owner string
	var add []string
	switch {
	case c.EnableIdempotence.Set:
		owner = kafkaconf.EnableIdempotence
	case !c.AcksAll():
		owner, add = kafkaconf.Acks, []string{"kgo.DisableIdempotentWrite()"}
	default: // more than 5 in flight
		owner, add = kafkaconf.MaxInFlight, []string{"kgo.DisableIdempotentWrite()"}
	}
	if !c.MaxInFlight.Set {
		add = append(add, fmt.Sprintf("kgo.MaxProduceRequestsInflightPerBroker(%d)", kafkaconf.JavaDefaults("").MaxInFlight))
	}
	out[owner] = strings.Join(append([]string{out[owner]}, add...), ", ")
}

// franzTextCtx is what a property's text depends on besides its value.
type franzTextCtx struct {
	idempotent bool   // as settleIdempotence decided
	protocol   string // security.protocol, upper case
	mechanism  string // sasl.mechanism, upper case
	trustType  string // ssl.truststore.type, upper case
}

func (c franzTextCtx) tls() bool  { return strings.HasSuffix(c.protocol, "SSL") }
func (c franzTextCtx) sasl() bool { return strings.HasPrefix(c.protocol, "SASL") }

// franzText renders a property's kgo options as Go code, or a note in
// parentheses when it has none. v is a value its franzProps entry takes
// (secret.Hidden for a secret); "" means the driver refuses it.
type franzText func(v string, c franzTextCtx) string

// franzTexts holds the text of every key of franzProps (a test fails for a
// key without one), mirroring what each entry appends to the kgo options:
// the producer's own properties here, the security group beside them.
var franzTexts = joinTexts(franzProducerTexts, franzSecurityTexts)

// joinTexts is the union of tables whose keys do not overlap.
func joinTexts(tables ...map[string]franzText) map[string]franzText {
	out := map[string]franzText{}
	for _, t := range tables {
		for k, f := range t {
			out[k] = f
		}
	}
	return out
}

// franzProducerTexts are the texts of the producer's own properties.
var franzProducerTexts = map[string]franzText{
	"acks": func(v string, _ franzTextCtx) string {
		return "kgo.RequiredAcks(" + acksTexts[v] + ")"
	},
	kafkaconf.EnableIdempotence: func(_ string, c franzTextCtx) string {
		if c.idempotent {
			return "(default: idempotent writes on)"
		}
		return "kgo.DisableIdempotentWrite()"
	},
	kafkaconf.MaxInFlight:    inFlightText,
	"linger.ms":              msText("kgo.ProducerLinger"),
	"delivery.timeout.ms":    msText("kgo.RecordDeliveryTimeout"),
	"request.timeout.ms":     msText("kgo.ProduceRequestTimeout"),
	"transaction.timeout.ms": msText("kgo.TransactionTimeout"),
	"metadata.max.age.ms": func(v string, _ franzTextCtx) string {
		d, _ := parseMs(v)
		return "kgo.MetadataMaxAge(" + goMs(d) + "), kgo.MetadataMinAge(" + goMs(min(d, 5*time.Second)) + ")"
	},
	"retry.backoff.ms": func(v string, _ franzTextCtx) string {
		d, _ := parseMs(v)
		return "kgo.RetryBackoffFn(func(int) time.Duration { return " + goMs(d) + " })"
	},
	"batch.size":           intText("kgo.ProducerBatchMaxBytes"),
	"buffer.memory":        intText("kgo.MaxBufferedBytes"),
	"max.buffered.records": intText("kgo.MaxBufferedRecords"),
	"retries":              intText("kgo.RecordRetries"),
	"compression.type": func(v string, _ franzTextCtx) string {
		return "kgo.ProducerBatchCompression(" + codecTexts[v] + ")"
	},
	"client.id": func(v string, _ franzTextCtx) string {
		return "kgo.ClientID(" + strconv.Quote(v) + ")"
	},
	"partitioner.class": func(v string, _ franzTextCtx) string {
		if v == "org.apache.kafka.clients.producer.RoundRobinPartitioner" {
			return "kgo.RecordPartitioner(kgo.RoundRobinPartitioner())"
		}
		return "kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil))"
	},
	"transactional.id": func(v string, _ franzTextCtx) string {
		return "kgo.TransactionalID(" + strconv.Quote(v) + ")"
	},
	"transaction.duration.ms": func(v string, _ franzTextCtx) string {
		d, _ := parseMs(v)
		return fmt.Sprintf("(no kgo option: prodlab commits each transaction after %d ms)", d.Milliseconds())
	},
	kafkaconf.TransactionRecords: func(v string, _ franzTextCtx) string {
		return "(no kgo option: prodlab ends each transaction after " + v + " records)"
	},
	kafkaconf.TransactionAbortRatio: func(v string, _ franzTextCtx) string {
		return "(no kgo option: prodlab aborts this share of its transactions: " + v + ")"
	},
	"partitioner.ignore.keys": func(v string, _ franzTextCtx) string {
		if ignore, _ := strconv.ParseBool(v); ignore {
			return "kgo.RecordPartitioner(kgo.UniformBytesPartitioner(64<<10, true, false, nil))"
		}
		return "(default: keys choose the partition)"
	},
	"key.serializer":   serializerText,
	"value.serializer": serializerText,
}

// inFlightText renders max.in.flight.requests.per.connection, which
// idempotent writes fix at kafkaconf.IdempotentMaxInFlight.
func inFlightText(v string, c franzTextCtx) string {
	n, _ := strconv.Atoi(v)
	switch {
	case !c.idempotent:
		return fmt.Sprintf("kgo.MaxProduceRequestsInflightPerBroker(%d)", n)
	case n == kafkaconf.IdempotentMaxInFlight:
		return fmt.Sprintf("(default with idempotent writes: %d in flight per broker)", n)
	default:
		return fmt.Sprintf("(refused with idempotent writes, which keep %d in flight per broker: "+
			"with enable.idempotence=false, kgo.MaxProduceRequestsInflightPerBroker(%d))", kafkaconf.IdempotentMaxInFlight, n)
	}
}

// franzUnused is the note of a security property that security.protocol
// leaves unused.
const franzUnused = "(unused with this security.protocol)"

// franzTLSText is the dialer option of security.protocol SSL and SASL_SSL.
const franzTLSText = "kgo.DialTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12})"

// acksTexts are the kgo.Acks of the acks values franzProps takes.
var acksTexts = map[string]string{
	"all": "kgo.AllISRAcks()",
	"-1":  "kgo.AllISRAcks()",
	"1":   "kgo.LeaderAck()",
	"0":   "kgo.NoAck()",
}

// codecTexts are the codecs of codecs, as Go code.
var codecTexts = map[string]string{
	"none":   "kgo.NoCompression()",
	"gzip":   "kgo.GzipCompression()",
	"snappy": "kgo.SnappyCompression()",
	"lz4":    "kgo.Lz4Compression()",
	"zstd":   "kgo.ZstdCompression()",
}

// saslTexts are the kgo.SASL options of the mechanisms saslOpt supports;
// user and pass stand for sasl.jaas.config's username and password, which
// are never written out.
var saslTexts = map[string]string{
	"PLAIN":         "kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism())",
	"SCRAM-SHA-256": "kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha256Mechanism())",
	"SCRAM-SHA-512": "kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha512Mechanism())",
}

// serializerText is the text of the byte-array serializers serializerProp
// takes.
func serializerText(string, franzTextCtx) string {
	return "(no kgo option: franz-go sends the bytes as they are)"
}

// msText renders a durationProp of the kgo option named opt.
func msText(opt string) franzText {
	return func(v string, _ franzTextCtx) string {
		d, _ := parseMs(v)
		return opt + "(" + goMs(d) + ")"
	}
}

// intText renders an intProp of the kgo option named opt.
func intText(opt string) franzText {
	return func(v string, _ franzTextCtx) string {
		n, _ := strconv.Atoi(v)
		return opt + "(" + strconv.Itoa(n) + ")"
	}
}

// goMs writes d, a whole number of milliseconds, as Go: "5 * time.Millisecond", or "0".
func goMs(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + " * time.Millisecond"
}
