package driver

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/clients"
)

// TestLibrdkafkaConfig: librdkafka's names and the Java names it shares
// pass; the Java client's security properties become librdkafka's; the
// Java spellings of values become librdkafka's; anything else is refused
// naming the nearest setting librdkafka has.
func TestLibrdkafkaConfig(t *testing.T) {
	const pem = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----"
	const jaas = `org.apache.kafka.common.security.scram.ScramLoginModule required username="prodlab" password="s3cret";`
	for _, tc := range []struct {
		name  string
		props map[string]string
		want  map[string]string // nil: not checked (an error is expected)
		// wantErr are substrings of the error, each; nil for no error.
		wantErr []string
		// notErr must not be in the error.
		notErr string
	}{
		{name: "librdkafka's own names pass as written",
			props: map[string]string{"batch.num.messages": "1000", "queue.buffering.max.kbytes": "1024", "sticky.partitioning.linger.ms": "10"},
			want:  map[string]string{"batch.num.messages": "1000", "queue.buffering.max.kbytes": "1024", "sticky.partitioning.linger.ms": "10"}},
		{name: "shared Java names pass, values trimmed",
			props: map[string]string{"linger.ms": " 5 ", "batch.size": "16384", "compression.type": "zstd", "enable.idempotence": "true"},
			want:  map[string]string{"linger.ms": "5", "batch.size": "16384", "compression.type": "zstd", "enable.idempotence": "true"}},
		{name: "acks all becomes -1",
			props: map[string]string{"acks": "all"},
			want:  map[string]string{"acks": "-1"}},
		{name: "librdkafka's own acks name takes all too",
			props: map[string]string{"request.required.acks": "all"},
			want:  map[string]string{"request.required.acks": "-1"}},
		{name: "other acks values pass",
			props: map[string]string{"acks": "1"},
			want:  map[string]string{"acks": "1"}},
		{name: "security.protocol is lowercased",
			props: map[string]string{"security.protocol": "SASL_SSL"},
			want:  map[string]string{"security.protocol": "sasl_ssl"}},
		{name: "PEM truststore becomes ssl.ca.pem; its type is consumed",
			props: map[string]string{"security.protocol": "SSL", "ssl.truststore.type": "PEM", "ssl.truststore.certificates": pem},
			want:  map[string]string{"security.protocol": "ssl", "ssl.ca.pem": pem}},
		{name: "lowercase pem type is PEM",
			props: map[string]string{"ssl.truststore.type": "pem", "ssl.truststore.location": "/etc/ca.pem"},
			want:  map[string]string{"ssl.ca.location": "/etc/ca.pem"}},
		{name: "truststore without a type is taken as PEM",
			props: map[string]string{"ssl.truststore.certificates": pem},
			want:  map[string]string{"ssl.ca.pem": pem}},
		{name: "empty endpoint identification becomes none",
			props: map[string]string{"ssl.endpoint.identification.algorithm": ""},
			want:  map[string]string{"ssl.endpoint.identification.algorithm": "none"}},
		{name: "https endpoint identification stays",
			props: map[string]string{"ssl.endpoint.identification.algorithm": "https"},
			want:  map[string]string{"ssl.endpoint.identification.algorithm": "https"}},
		{name: "SCRAM login becomes sasl.username and sasl.password; sasl.mechanism passes",
			props: map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "SCRAM-SHA-512", "sasl.jaas.config": jaas},
			want: map[string]string{"security.protocol": "sasl_ssl", "sasl.mechanism": "SCRAM-SHA-512",
				"sasl.username": "prodlab", "sasl.password": "s3cret"}},
		{name: "no properties, no configuration",
			props: map[string]string{},
			want:  map[string]string{}},

		{name: "buffer.memory refused, nearest queue.buffering.max.kbytes",
			props:   map[string]string{"buffer.memory": "33554432"},
			wantErr: []string{"producer property buffer.memory is not supported by client librdkafka; its nearest setting is queue.buffering.max.kbytes"}},
		{name: "max.request.size refused, nearest message.max.bytes",
			props:   map[string]string{"max.request.size": "1048576"},
			wantErr: []string{"producer property max.request.size is not supported by client librdkafka; its nearest setting is message.max.bytes"}},
		// A number out of librdkafka's range is refused as written: the
		// library would convert first (2^32 + 1000 ran as 1000).
		{name: "a count that would wrap",
			props:   map[string]string{"batch.num.messages": "4294968296"},
			wantErr: []string{`batch.num.messages must be an integer in 1..1000000, got "4294968296"`}},
		{name: "acks all still passes as -1",
			props: map[string]string{"acks": "all"},
			want:  map[string]string{"acks": "-1"}},
		// transactional.id passes to librdkafka; prodlab's schedule stays
		// with the driver.
		{name: "transactional.id passes, the transaction schedule stays prodlab's",
			props: map[string]string{"transactional.id": "tx", "transaction.duration.ms": "100", "transaction.records": "10", "transaction.abort.ratio": "0.2"},
			want:  map[string]string{"transactional.id": "tx"}},
		// The worker's counters come from these reports: another interval
		// would leave them wrong, so it is refused, not overridden.
		// Without a report for every record a flush would wait forever.
		{name: "delivery.report.only.error refused with the reason",
			props:   map[string]string{"delivery.report.only.error": "true"},
			wantErr: []string{"producer property delivery.report.only.error is not supported by client librdkafka (prodlab's librdkafka worker counts every record by its delivery report"}},
		{name: "statistics.interval.ms refused with the reason",
			props:   map[string]string{"statistics.interval.ms": "0"},
			wantErr: []string{"producer property statistics.interval.ms is not supported by client librdkafka (prodlab's librdkafka worker sets it to read"}},
		{name: "serializers refused: librdkafka takes bytes",
			props:   map[string]string{"value.serializer": "org.apache.kafka.common.serialization.ByteArraySerializer"},
			wantErr: []string{"value.serializer is not supported by client librdkafka (librdkafka takes raw bytes"}},
		{name: "franz-go's extension refused, nearest queue.buffering.max.messages",
			props:   map[string]string{"max.buffered.records": "1000"},
			wantErr: []string{"max.buffered.records is not supported by client librdkafka; its nearest setting is queue.buffering.max.messages"}},
		{name: "a consumer's setting is refused",
			props:   map[string]string{"group.id": "g"},
			wantErr: []string{"producer property group.id is not supported by client librdkafka"}},
		{name: "a typo names the setting",
			props:   map[string]string{"linger.mss": "5"},
			wantErr: []string{"linger.mss is not supported by client librdkafka; its nearest setting is linger.ms"}},
		{name: "every refusal is reported, not only the first",
			props:   map[string]string{"buffer.memory": "1", "max.request.size": "2", "acks": "all"},
			wantErr: []string{"buffer.memory is not supported", "max.request.size is not supported"}},
		{name: "a JKS truststore is refused",
			props:   map[string]string{"ssl.truststore.type": "JKS", "ssl.truststore.location": "/etc/ts.jks"},
			wantErr: []string{"ssl.truststore.type=JKS is not readable by client librdkafka"}},
		{name: "a truststore password has no counterpart",
			props:   map[string]string{"ssl.truststore.type": "PEM", "ssl.truststore.password": "x"},
			wantErr: []string{"producer property ssl.truststore.password is not supported by client librdkafka"},
			notErr:  "ssl.truststore.type"},
		{name: "a JAAS line without username is refused",
			props:   map[string]string{"sasl.jaas.config": `x required password="p";`},
			wantErr: []string{`sasl.jaas.config: no username="…" found`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := LibrdkafkaConfig(tc.props)
			if tc.wantErr == nil {
				if err != nil {
					t.Fatalf("LibrdkafkaConfig(%v) error %v", tc.props, err)
				}
				if !maps.Equal(got, tc.want) {
					t.Errorf("LibrdkafkaConfig(%v)\n got %v\nwant %v", tc.props, got, tc.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("LibrdkafkaConfig(%v) = %v, nil; want an error with %q", tc.props, got, tc.wantErr)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("LibrdkafkaConfig(%v) error\n %v\nwant it to contain %q", tc.props, err, w)
				}
			}
			if tc.notErr != "" && strings.Contains(err.Error(), tc.notErr) {
				t.Errorf("LibrdkafkaConfig(%v) error\n %v\nwant it without %q", tc.props, err, tc.notErr)
			}
		})
	}
}

// TestCheckLibrdkafka: a client name for another librdkafka release is
// refused before anything looks for the worker; otherwise a refusal of
// the properties comes first; properties that pass need the worker, which
// a missing one says how to build.
func TestCheckLibrdkafka(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-worker")
	t.Setenv(LibrdkafkaWorkerEnv, missing) // for Check, which finds the worker itself
	good := map[string]string{"acks": "all", "batch.num.messages": "1000"}
	bad := map[string]string{"buffer.memory": "1"}
	const workerErr = "client librdkafka needs its worker, which is not at " // then the path
	for _, tc := range []struct {
		label  string
		client string
		props  map[string]string
		// direct: call CheckLibrdkafka with the missing worker's path;
		// else the registry's Check, the way the lab checks a plan.
		direct  bool
		wantErr []string
	}{
		// Another release, through the registry: the name's error, naming the bundled release.
		{"other release", "librdkafka@2.3.0", good, false, []string{"librdkafka@2.3.0", "bundles librdkafka " + clients.LibrdkafkaRelease, "librdkafka@" + clients.LibrdkafkaRelease}},
		// Even with properties librdkafka refuses, the name comes first.
		{"other release, bad props", "librdkafka@2.3.0", bad, false, []string{"bundles librdkafka " + clients.LibrdkafkaRelease}},
		// A refused property is reported without the worker.
		{"refused property", "librdkafka", bad, true, []string{"buffer.memory is not supported by client librdkafka"}},
		{"refused property, registry", "librdkafka", bad, false, []string{"buffer.memory is not supported by client librdkafka"}},
		// Good properties and the bundled release: the worker is needed and missing.
		{"missing worker", "librdkafka", good, true, []string{workerErr + missing, "make build", LibrdkafkaWorkerEnv}},
		{"missing worker, bundled release named", "librdkafka@" + clients.LibrdkafkaRelease, good, true, []string{workerErr + missing}},
		{"missing worker, registry", "librdkafka", good, false, []string{workerErr + missing, "make build"}},
	} {
		t.Run(tc.label, func(t *testing.T) {
			var err error
			if tc.direct {
				err = CheckLibrdkafka(tc.client, tc.props, missing)
			} else {
				err = Check(tc.client, tc.props)
			}
			if err == nil {
				t.Fatalf("%s %v: no error, want one with %q", tc.client, tc.props, tc.wantErr)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s %v: error\n %v\nwant it to contain %q", tc.client, tc.props, err, w)
				}
			}
			if wantWorker := strings.HasPrefix(tc.wantErr[0], workerErr); wantWorker != strings.Contains(err.Error(), workerErr) {
				t.Errorf("%s %v: error %v; the worker should be looked for only when the name and properties pass", tc.client, tc.props, err)
			}
		})
	}

	// CheckLibrdkafka called directly with another release's name refuses
	// the name, naming the bundled release, before the worker is looked for.
	t.Run("other release, direct", func(t *testing.T) {
		err := CheckLibrdkafka("librdkafka@2.3.0", good, missing)
		if err == nil || !strings.Contains(err.Error(), clients.LibrdkafkaRelease) || strings.Contains(err.Error(), workerErr) {
			t.Errorf("CheckLibrdkafka(librdkafka@2.3.0) = %v; want the release refused naming %s", err, clients.LibrdkafkaRelease)
		}
	})
}

// TestCheckJavaLibrdkafkaNames: the Java client refuses librdkafka's own
// names, naming its nearest setting, and takes the names both have.
func TestCheckJavaLibrdkafkaNames(t *testing.T) {
	const client = "java@4.1.0"
	for _, tc := range []struct {
		props   map[string]string
		wantErr string // "" for none
	}{
		// librdkafka's batch count: nearest is batch.size.
		{map[string]string{"batch.num.messages": "1000"},
			"producer property batch.num.messages is not supported by client java@4.1.0 (it is librdkafka's); its nearest setting is batch.size"},
		// librdkafka's buffer bound: nearest is buffer.memory.
		{map[string]string{"queue.buffering.max.kbytes": "1024"},
			"producer property queue.buffering.max.kbytes is not supported by client java@4.1.0 (it is librdkafka's); its nearest setting is buffer.memory"},
		// librdkafka's SASL login: Java's is in sasl.jaas.config.
		{map[string]string{"sasl.username": "u"},
			"producer property sasl.username is not supported by client java@4.1.0 (it is librdkafka's); its nearest setting is sasl.jaas.config"},
		// An alias of librdkafka's, not a Java name.
		{map[string]string{"max.in.flight": "5"},
			"producer property max.in.flight is not supported by client java@4.1.0 (it is librdkafka's); its nearest setting is max.in.flight.requests.per.connection"},
		// librdkafka's with nothing near in Java.
		{map[string]string{"enable.gapless.guarantee": "true"},
			"producer property enable.gapless.guarantee is not supported by client java@4.1.0 (it is librdkafka's)"},
		// The first refused name in sort order is reported.
		{map[string]string{"queue.buffering.max.kbytes": "1", "batch.num.messages": "1"},
			"producer property batch.num.messages is not supported"},
		// Names both clients have pass.
		{map[string]string{"acks": "all", "linger.ms": "5", "batch.size": "16384", "compression.type": "lz4", "sasl.mechanism": "PLAIN"}, ""},
		// Names neither has are left to the Java client itself.
		{map[string]string{"no.such.setting": "1"}, ""},
		// transaction.duration.ms is honoured by the Java worker.
		{map[string]string{"transaction.duration.ms": "100"}, ""},
	} {
		err := CheckJava(client, tc.props)
		switch {
		case tc.wantErr == "" && err != nil:
			t.Errorf("CheckJava(%v) = %v, want nil", tc.props, err)
		case tc.wantErr != "" && (err == nil || !strings.HasPrefix(err.Error(), tc.wantErr)):
			t.Errorf("CheckJava(%v) = %v, want prefix %q", tc.props, err, tc.wantErr)
		}
	}
	// The registry's check is the same.
	if err := Check(client, map[string]string{"batch.num.messages": "1"}); err == nil || !strings.Contains(err.Error(), "nearest setting is batch.size") {
		t.Errorf("Check(%s, batch.num.messages) = %v, want the refusal naming batch.size", client, err)
	}
}

// TestLibrdkafkaRunCheckTellsRefusalFromCrash: only the worker's refusal
// exit (LibrdkafkaRefusedExit) reads as librdkafka refusing the
// properties, and is remembered; a panic (exit 2) or a crash by signal is
// the worker's failure, not remembered, its stderr clipped to one line.
func TestLibrdkafkaRunCheckTellsRefusalFromCrash(t *testing.T) {
	dir := t.TempDir()
	script := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("#!/bin/sh\ncat > /dev/null\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name, body string
		final      bool
		want       string
	}{
		{"refusal", `echo "acks must be …" >&2; exit 4`, true, "client librdkafka refuses these producer properties: acks must be …"},
		{"panic", `printf 'panic: runtime error\n\ngoroutine 1 [running]:\n' >&2; exit 2`, false, `failed: exit status 2: "panic: runtime error\n\ngoroutine 1 [running]:"`},
		{"crash", `kill -SEGV $$`, false, "failed: signal: segmentation fault"},
	} {
		_, final, err := librdkafkaRunCheck(script(tc.name+".sh", tc.body), []byte("{}"))
		if err == nil || final != tc.final || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: final %v, %v; want final %v and %q", tc.name, final, err, tc.final, tc.want)
		}
		if strings.Contains(tc.name, "panic") && strings.Contains(err.Error(), "refuses") {
			t.Errorf("%s read as a refusal: %v", tc.name, err)
		}
	}
}
