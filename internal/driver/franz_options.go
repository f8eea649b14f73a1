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
// Java client's rules (decideIdempotence), and the options that decision
// brings (kgo.DisableIdempotentWrite, Java's default of 5 requests in
// flight) stand beside the property that decided it, once, so that the
// texts pasted together are the driver's options. Every key of props is in
// the result, "" for a key or value the driver refuses on its own. It
// renders and does not check combinations (transactional.id with
// enable.idempotence=false, a truststore file): Check does.
func FranzOptions(props map[string]string) map[string]string {
	// A refused value is not among st.Names() (st.Err names it; Check
	// reports it), so it renders "" below.
	st := kafkaconf.Decode(props)
	s := &franzSettings{conf: st.Producer}
	valid := make(map[string]kafkaconf.Value, len(props))
	for _, k := range st.Names() {
		v, _ := st.Value(k) // one of st.Names()
		if row, ok := franzTable[k]; ok && (row.apply == nil || row.apply(v, s) == nil) {
			valid[k] = v
		}
	}
	// A refused combination still decides s.idempotent (Check reports it).
	s.decideIdempotence()
	c := franzTextCtx{
		idempotent: s.idempotent,
		protocol:   s.sec.protocol,
		mechanism:  s.sec.mechanism,
		trustType:  s.sec.trustType,
	}
	out := make(map[string]string, len(props))
	for k := range props {
		v, ok := valid[k]
		if !ok {
			out[k] = ""
			continue
		}
		if secret.IsKey(k) {
			v = kafkaconf.TextValue(secret.Hidden)
		}
		out[k] = franzTable[k].text(v, c)
	}
	if !s.idempotent {
		addIdempotenceOff(out, s.conf)
	}
	return out
}

// addIdempotenceOff adds to out what decideIdempotence adds for a producer
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
	idempotent bool   // as decideIdempotence decided
	protocol   string // security.protocol, upper case
	mechanism  string // sasl.mechanism, upper case
	trustType  string // ssl.truststore.type, upper case
}

func (c franzTextCtx) tls() bool  { return strings.HasSuffix(c.protocol, "SSL") }
func (c franzTextCtx) sasl() bool { return strings.HasPrefix(c.protocol, "SASL") }

// franzText renders a property's kgo options as Go code, or a note in
// parentheses when it has none. v is a value its row takes
// (secret.Hidden for a secret); "" means the driver refuses it.
type franzText func(v kafkaconf.Value, c franzTextCtx) string

// inFlightText renders max.in.flight.requests.per.connection, which
// idempotent writes fix at kafkaconf.IdempotentMaxInFlight.
func inFlightText(v kafkaconf.Value, c franzTextCtx) string {
	n := v.Int()
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

// acksTexts are the kgo.Acks of the acks values franz-go takes, as Go code.
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

// goMs writes d, a whole number of milliseconds, as Go: "5 * time.Millisecond", or "0".
func goMs(d time.Duration) string {
	if d == 0 {
		return "0"
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + " * time.Millisecond"
}
