package driver

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/secret"
)

// TestFranzOption: each property read alone gives exactly the Go code of
// the kgo options the driver makes of it, a note when it makes none, and
// nothing for what the driver refuses.
func TestFranzOption(t *testing.T) {
	tests := []struct {
		key, value string
		want       string
		ok         bool
	}{
		{"linger.ms", "5", "kgo.ProducerLinger(5 * time.Millisecond)", true},
		{"linger.ms", "0", "kgo.ProducerLinger(0)", true},
		{"linger.ms", " 20 ", "kgo.ProducerLinger(20 * time.Millisecond)", true},
		{"batch.size", "262144", "kgo.ProducerBatchMaxBytes(262144)", true},
		{"buffer.memory", "33554432", "kgo.MaxBufferedBytes(33554432)", true},
		{"max.buffered.records", "10000", "kgo.MaxBufferedRecords(10000)", true},
		{"retries", "3", "kgo.RecordRetries(3)", true},
		{"compression.type", "zstd", "kgo.ProducerBatchCompression(kgo.ZstdCompression())", true},
		{"compression.type", "lz4", "kgo.ProducerBatchCompression(kgo.Lz4Compression())", true},
		{"compression.type", "none", "kgo.ProducerBatchCompression(kgo.NoCompression())", true},
		{"acks", "all", "kgo.RequiredAcks(kgo.AllISRAcks())", true},
		{"acks", "-1", "kgo.RequiredAcks(kgo.AllISRAcks())", true},
		// acks other than all turns idempotence off (the Java rule), and
		// the driver then keeps Java's 5 requests in flight, not kgo's 1.
		{"acks", "1", "kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite(), kgo.MaxProduceRequestsInflightPerBroker(5)", true},
		{"acks", "0", "kgo.RequiredAcks(kgo.NoAck()), kgo.DisableIdempotentWrite(), kgo.MaxProduceRequestsInflightPerBroker(5)", true},
		{"enable.idempotence", "true", "(default: idempotent writes on)", false},
		{"enable.idempotence", "false", "kgo.DisableIdempotentWrite(), kgo.MaxProduceRequestsInflightPerBroker(5)", true},
		{kafkaconf.MaxInFlight, "5", "(default with idempotent writes: 5 in flight per broker)", false},
		{kafkaconf.MaxInFlight, "1", "(refused with idempotent writes, which keep 5 in flight per broker: " +
			"with enable.idempotence=false, kgo.MaxProduceRequestsInflightPerBroker(1))", false},
		// more than 5 in flight turns idempotence off (the Java rule)
		{kafkaconf.MaxInFlight, "10", "kgo.MaxProduceRequestsInflightPerBroker(10), kgo.DisableIdempotentWrite()", true},
		{"delivery.timeout.ms", "120000", "kgo.RecordDeliveryTimeout(120000 * time.Millisecond)", true},
		{"request.timeout.ms", "30000", "kgo.ProduceRequestTimeout(30000 * time.Millisecond)", true},
		{"metadata.max.age.ms", "300000", "kgo.MetadataMaxAge(300000 * time.Millisecond), kgo.MetadataMinAge(5000 * time.Millisecond)", true},
		{"metadata.max.age.ms", "1000", "kgo.MetadataMaxAge(1000 * time.Millisecond), kgo.MetadataMinAge(1000 * time.Millisecond)", true},
		{"retry.backoff.ms", "100", "kgo.RetryBackoffFn(func(int) time.Duration { return 100 * time.Millisecond })", true},
		{"client.id", `my "app"`, `kgo.ClientID("my \"app\"")`, true},
		{"transactional.id", "tx-1", `kgo.TransactionalID("tx-1")`, true},
		{"transaction.timeout.ms", "60000", "kgo.TransactionTimeout(60000 * time.Millisecond)", true},
		{"transaction.duration.ms", "100", "(no kgo option: prodlab commits each transaction after 100 ms)", false},
		{"partitioner.class", "org.apache.kafka.clients.producer.RoundRobinPartitioner", "kgo.RecordPartitioner(kgo.RoundRobinPartitioner())", true},
		{"partitioner.class", "org.apache.kafka.clients.producer.UniformStickyPartitioner", "kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil))", true},
		{"partitioner.ignore.keys", "true", "kgo.RecordPartitioner(kgo.UniformBytesPartitioner(64<<10, true, false, nil))", true},
		{"partitioner.ignore.keys", "false", "(default: keys choose the partition)", false},
		{"key.serializer", "org.apache.kafka.common.serialization.ByteArraySerializer", "(no kgo option: franz-go sends the bytes as they are)", false},
		{"security.protocol", "PLAINTEXT", "(default: plaintext)", false},
		{"security.protocol", "ssl", "kgo.DialTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12})", true},
		{"security.protocol", "SASL_SSL", "kgo.DialTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12}), kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism())", true},
		{"security.protocol", "SASL_PLAINTEXT", "kgo.SASL(plain.Auth{User: user, Pass: pass}.AsMechanism())", true},
		{"sasl.mechanism", "SCRAM-SHA-512", "(unused with this security.protocol)", false},
		{"sasl.jaas.config", `x required username="u" password="p";`, "(unused with this security.protocol)", false},
		// refused by the driver: nothing to show
		{"acks", "2", "", false},
		{"linger.ms", "-1", "", false},
		{"compression.type", "brotli", "", false},
		{kafkaconf.MaxInFlight, "0", "", false},
		{"security.protocol", "TLS", "", false},
		{"max.request.size", "1048576", "", false}, // franz-go has no such setting
		{"no.such.property", "1", "", false},
	}
	for _, tt := range tests {
		got, ok := FranzOption(tt.key, tt.value)
		if got != tt.want || ok != tt.ok {
			t.Errorf("FranzOption(%q, %q) = %q, %v\n\twant %q, %v", tt.key, tt.value, got, ok, tt.want, tt.ok)
		}
	}
}

// franzSamples holds a value franz-go takes for every row of franzTable:
// TestFranzOptionEveryProperty asks for one, so a row added to franzTable
// cannot go without a text.
var franzSamples = map[string]string{
	"acks":                                  "all",
	"enable.idempotence":                    "true",
	kafkaconf.MaxInFlight:                   "5",
	"linger.ms":                             "5",
	"delivery.timeout.ms":                   "120000",
	"request.timeout.ms":                    "30000",
	"metadata.max.age.ms":                   "300000",
	"retry.backoff.ms":                      "100",
	"batch.size":                            "262144",
	"buffer.memory":                         "33554432",
	"max.buffered.records":                  "10000",
	"retries":                               "3",
	"compression.type":                      "zstd",
	"client.id":                             "prodlab",
	"partitioner.class":                     "org.apache.kafka.clients.producer.RoundRobinPartitioner",
	"transactional.id":                      "tx",
	"transaction.timeout.ms":                "60000",
	"transaction.duration.ms":               "100",
	"transaction.records":                   "500",
	"transaction.abort.ratio":               "0.2",
	"partitioner.ignore.keys":               "true",
	"key.serializer":                        "org.apache.kafka.common.serialization.ByteArraySerializer",
	"value.serializer":                      "org.apache.kafka.common.serialization.ByteArraySerializer",
	"security.protocol":                     "SASL_SSL",
	"ssl.truststore.type":                   "PEM",
	"ssl.truststore.certificates":           "-----BEGIN CERTIFICATE-----",
	"ssl.truststore.location":               "/etc/kafka/ca.pem",
	"ssl.endpoint.identification.algorithm": "",
	"sasl.mechanism":                        "SCRAM-SHA-512",
	"sasl.jaas.config":                      `x required username="u" password="p";`,
}

// TestFranzOptionEveryProperty: every property franz-go takes has a text,
// and its sample value is taken.
func TestFranzOptionEveryProperty(t *testing.T) {
	for _, k := range slices.Sorted(maps.Keys(franzTable)) {
		v, ok := franzSamples[k]
		if !ok {
			t.Errorf("franzTable has %s but franzSamples has no value for it: add one", k)
			continue
		}
		if franzTable[k].text == nil {
			t.Errorf("franzTable's row %s has no text", k)
			continue
		}
		if got, _ := FranzOption(k, v); got == "" {
			t.Errorf("FranzOption(%q, %q) is empty: the row refuses its own sample", k, v)
		}
	}
	if !slices.Equal(slices.Sorted(maps.Keys(codecTexts)), slices.Sorted(maps.Keys(codecs))) {
		t.Errorf("codecTexts has %v, codecs %v", slices.Sorted(maps.Keys(codecTexts)), slices.Sorted(maps.Keys(codecs)))
	}
	if !slices.Equal(slices.Sorted(maps.Keys(acksTexts)), slices.Sorted(maps.Keys(franzAcks))) {
		t.Errorf("acksTexts has %v, franzAcks %v", slices.Sorted(maps.Keys(acksTexts)), slices.Sorted(maps.Keys(franzAcks)))
	}
}

// TestFranzOptionSecrets: a secret's value never reaches the text, in any
// context.
func TestFranzOptionSecrets(t *testing.T) {
	const value = "s3cr3t-VALUE"
	for k := range franzTable {
		if !secret.IsKey(k) {
			continue
		}
		for _, protocol := range []string{"PLAINTEXT", "SASL_SSL"} {
			got := FranzOptions(map[string]string{k: value, "security.protocol": protocol})[k]
			if got == "" || strings.Contains(got, value) || strings.Contains(got, "s3cr3t") {
				t.Errorf("%s=%s with security.protocol=%s: text %q", k, value, protocol, got)
			}
		}
	}
}

// TestFranzOptionsFile: read together, the options of idempotence stand
// once, beside the property that decides it, and the security properties
// share out the dialer and SASL options.
func TestFranzOptionsFile(t *testing.T) {
	jaas := `x required username="u" password="p";`
	tests := []struct {
		name  string
		props map[string]string
		want  map[string]string
	}{
		{"idempotence off, in-flight set",
			map[string]string{"acks": "all", "enable.idempotence": "false", kafkaconf.MaxInFlight: "1"},
			map[string]string{
				"acks":                "kgo.RequiredAcks(kgo.AllISRAcks())",
				"enable.idempotence":  "kgo.DisableIdempotentWrite()",
				kafkaconf.MaxInFlight: "kgo.MaxProduceRequestsInflightPerBroker(1)",
			}},
		{"acks 1 turns idempotence off",
			map[string]string{"acks": "1", kafkaconf.MaxInFlight: "3"},
			map[string]string{
				"acks":                "kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite()",
				kafkaconf.MaxInFlight: "kgo.MaxProduceRequestsInflightPerBroker(3)",
			}},
		{"idempotent",
			map[string]string{"acks": "all", "enable.idempotence": "true", kafkaconf.MaxInFlight: "5", "linger.ms": "5"},
			map[string]string{
				"acks":                "kgo.RequiredAcks(kgo.AllISRAcks())",
				"enable.idempotence":  "(default: idempotent writes on)",
				kafkaconf.MaxInFlight: "(default with idempotent writes: 5 in flight per broker)",
				"linger.ms":           "kgo.ProducerLinger(5 * time.Millisecond)",
			}},
		{"sasl_ssl scram",
			map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "scram-sha-512", "sasl.jaas.config": jaas,
				"ssl.truststore.type": "PEM", "ssl.truststore.location": "/etc/ca.pem", "ssl.endpoint.identification.algorithm": "https"},
			map[string]string{
				"security.protocol":                     "kgo.DialTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12})",
				"sasl.mechanism":                        "kgo.SASL(scram.Auth{User: user, Pass: pass}.AsSha512Mechanism())",
				"sasl.jaas.config":                      "(value hidden: its username and password are the user and pass of kgo.SASL)",
				"ssl.truststore.type":                   "(no kgo option: franz-go reads ssl.truststore.location as PEM)",
				"ssl.truststore.location":               "(the RootCAs of kgo.DialTLSConfig's tls.Config, read from PEM file /etc/ca.pem)",
				"ssl.endpoint.identification.algorithm": "(default: the tls.Config of kgo.DialTLSConfig checks the server's host name)",
			}},
		{"refused parts",
			map[string]string{"security.protocol": "SSL", "ssl.truststore.type": "JKS", "ssl.truststore.location": "/etc/ts.jks",
				"acks": "2", "max.request.size": "1"},
			map[string]string{
				"security.protocol":       "kgo.DialTLSConfig(&tls.Config{MinVersion: tls.VersionTLS12})",
				"ssl.truststore.type":     "(no kgo option: franz-go reads PEM truststores only)",
				"ssl.truststore.location": "",
				"acks":                    "",
				"max.request.size":        "",
			}},
	}
	for _, tt := range tests {
		if got := FranzOptions(tt.props); !maps.Equal(got, tt.want) {
			t.Errorf("%s: FranzOptions(%v)\n\t= %q\n\twant %q", tt.name, tt.props, got, tt.want)
		}
	}
}

// TestFranzOptionsMatchDriver: the kgo options named in the texts of a
// file are exactly those mapFranzProps makes of it, one for one.
func TestFranzOptionsMatchDriver(t *testing.T) {
	ca := testCAPEM(t)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, []byte(ca), 0o600); err != nil {
		t.Fatal(err)
	}
	jaas := `x required username="u" password="p";`
	files := []map[string]string{
		{"acks": "1"},
		{"acks": "0", kafkaconf.MaxInFlight: "3"},
		{"enable.idempotence": "false"},
		{"enable.idempotence": "false", kafkaconf.MaxInFlight: "1", "acks": "all"},
		{kafkaconf.MaxInFlight: "10"},
		{"acks": "-1", kafkaconf.MaxInFlight: "5", "enable.idempotence": "true", "transactional.id": "tx",
			"transaction.timeout.ms": "60000", "transaction.duration.ms": "100"},
		{"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-256", "sasl.jaas.config": jaas,
			"ssl.truststore.type": "PEM", "ssl.truststore.certificates": ca},
		{"security.protocol": "SASL_PLAINTEXT", "sasl.jaas.config": jaas},
		{"security.protocol": "SASL_SSL", "sasl.mechanism": "", "sasl.jaas.config": jaas},
		{"security.protocol": "SSL", "ssl.truststore.type": "PEM", "ssl.truststore.location": caFile,
			"ssl.endpoint.identification.algorithm": ""},
		{"partitioner.class": "org.apache.kafka.clients.producer.internals.DefaultPartitioner", "partitioner.ignore.keys": "false"},
	}
	for k, v := range franzSamples {
		if !strings.HasPrefix(k, "ssl.") && !strings.HasPrefix(k, "sasl.") && k != "security.protocol" {
			files = append(files, map[string]string{k: v})
		}
	}
	for _, props := range files {
		s, err := mapFranzProps(kafkaconf.Decode(props))
		if err != nil {
			t.Errorf("mapFranzProps(%v): %v", props, err)
			continue
		}
		var driver, texts []string
		for _, o := range s.opts {
			driver = append(driver, kgoOptName(t, o))
		}
		for _, text := range FranzOptions(props) {
			texts = append(texts, textOptNames(text)...)
		}
		slices.Sort(driver)
		slices.Sort(texts)
		if !slices.Equal(driver, texts) {
			t.Errorf("%v: the driver makes %v, the texts name %v", props, driver, texts)
		}
	}
}

// kgoClosure finds the kgo function that made an option in the name of
// the closure it holds: "github.com/twmb/franz-go/pkg/kgo.ProducerLinger.func1",
// or "….driver.init.func19.RequiredAcks.2" where the function was inlined.
var kgoClosure = regexp.MustCompile(`\.([A-Z]\w*)\.(?:func)?\d+$`)

// kgoWrappers are kgo functions whose option another kgo function makes:
// the closure's name is the inner one's.
var kgoWrappers = map[string]string{
	"ProducerBatchMaxBytesFn": "ProducerBatchMaxBytes",
}

// kgoOptName names the kgo function that made o, as the texts write it
// ("kgo.ProducerLinger").
func kgoOptName(t *testing.T, o kgo.Opt) string {
	t.Helper()
	v := reflect.ValueOf(o)
	if v.Kind() != reflect.Struct || v.NumField() == 0 || v.Field(0).Kind() != reflect.Func {
		t.Fatalf("kgo option %T is not a struct holding a func: kgoOptName needs updating", o)
	}
	m := kgoClosure.FindStringSubmatch(runtime.FuncForPC(v.Field(0).Pointer()).Name())
	if m == nil {
		t.Fatalf("kgo option %T holds %s: kgoOptName needs updating", o, runtime.FuncForPC(v.Field(0).Pointer()).Name())
	}
	if outer, ok := kgoWrappers[m[1]]; ok {
		return "kgo." + outer
	}
	return "kgo." + m[1]
}

// textOptNames lists the kgo options a text passes to kgo.NewClient: the
// kgo functions called outside any parentheses (so none in a note).
func textOptNames(text string) []string {
	var names []string
	depth := 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
		}
		if depth == 0 && strings.HasPrefix(text[i:], "kgo.") {
			j := i + len("kgo.")
			for j < len(text) && (text[j] == '_' || 'a' <= text[j] && text[j] <= 'z' || 'A' <= text[j] && text[j] <= 'Z' || '0' <= text[j] && text[j] <= '9') {
				j++
			}
			names = append(names, text[i:j])
			i = j - 1
		}
	}
	return names
}
