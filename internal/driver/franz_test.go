package driver

import (
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// TestMapFranzProps checks how Java producer properties land on franz-go:
// the effective settings read back from a real kgo client, and the
// rejections, which must name the property.
func TestMapFranzProps(t *testing.T) {
	tests := []struct {
		name    string
		props   map[string]string
		want    map[string]string // effective settings that must hold
		wantErr string            // substring of the error; "" = accepted
	}{
		// Nothing set: franz-go's own defaults, idempotent as Java's are.
		{name: "defaults", props: nil, want: map[string]string{
			"acks": "all", "enable.idempotence": "true", "max.in.flight.requests.per.connection": "5",
			"linger.ms": "10", "compression.type": "snappy,none"}},
		// The batching experiment's settings.
		{name: "batching", props: map[string]string{
			"acks": "all", "batch.size": "1048576", "linger.ms": "5", "compression.type": "zstd",
			"buffer.memory": "268435456", "max.buffered.records": "200000"},
			want: map[string]string{"batch.size": "1048576", "linger.ms": "5", "compression.type": "zstd",
				"buffer.memory": "268435456", "max.buffered.records": "200000"}},
		// acks=1 without enable.idempotence turns idempotence off, as in Java,
		// and in-flight defaults to Java's 5.
		{name: "acks=1 implies no idempotence", props: map[string]string{"acks": "1"},
			want: map[string]string{"acks": "1", "enable.idempotence": "false", "max.in.flight.requests.per.connection": "5"}},
		// In-flight above 5 without enable.idempotence also turns it off.
		{name: "in-flight 10 implies no idempotence", props: map[string]string{"max.in.flight.requests.per.connection": "10"},
			want: map[string]string{"enable.idempotence": "false", "max.in.flight.requests.per.connection": "10"}},
		// Timeouts, retries and the rest pass through in Java units.
		{name: "timeouts", props: map[string]string{"delivery.timeout.ms": "120000", "request.timeout.ms": "30000",
			"retries": "7", "metadata.max.age.ms": "1000", "client.id": "lab"},
			want: map[string]string{"delivery.timeout.ms": "120000", "request.timeout.ms": "30000",
				"retries": "7", "metadata.max.age.ms": "1000", "client.id": "lab"}},
		// Contradictions the Java rules reject.
		{name: "idempotence with acks=1", props: map[string]string{"enable.idempotence": "true", "acks": "1"},
			wantErr: "enable.idempotence=true requires acks=all"},
		{name: "transactional without idempotence", props: map[string]string{"enable.idempotence": "false", "transactional.id": "t"},
			wantErr: "transactional.id requires enable.idempotence=true"},
		// franz-go's idempotent producer always keeps 5 in flight.
		{name: "idempotent in-flight 3", props: map[string]string{"enable.idempotence": "true", "max.in.flight.requests.per.connection": "3"},
			wantErr: "max.in.flight.requests.per.connection=3 with idempotence is not supported by client franz-go"},
		// A property with no kgo equivalent is an error, never ignored.
		{name: "unsupported property", props: map[string]string{"max.request.size": "2000000"},
			wantErr: "producer property max.request.size is not supported by client franz-go"},
		// Bad values name the property.
		{name: "bad value", props: map[string]string{"linger.ms": "soon"}, wantErr: "producer property linger.ms"},
		{name: "bad codec", props: map[string]string{"compression.type": "brotli"}, wantErr: "compression.type must be one of"},
		{name: "bad partitioner", props: map[string]string{"partitioner.class": "com.example.Mine"}, wantErr: "has no franz-go equivalent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := mapFranzProps(kafkaconf.Decode(tt.props))
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers("127.0.0.1:1")}, s.opts...)...)
			if err != nil {
				t.Fatalf("kgo rejects the mapped options: %v", err)
			}
			defer cl.Close()
			eff := franzEffective(cl, s)
			for k, v := range tt.want {
				if eff[k] != v {
					t.Errorf("effective %s = %q, want %q (all: %v)", k, eff[k], v, eff)
				}
			}
		})
	}
}

// TestClientFactory: client names select the right checks and releases.
func TestClientFactory(t *testing.T) {
	if err := Check("franz-go", map[string]string{"max.request.size": "1"}); err == nil {
		t.Error("franz-go accepted a property it cannot honour")
	}
	if err := Check("java@3.9.1", map[string]string{"max.request.size": "1"}); err != nil {
		t.Errorf("java rejected a Java property: %v", err)
	}
	if err := Check("java", map[string]string{"max.buffered.records": "5"}); err == nil {
		t.Error("java accepted franz-go's record-count buffer bound")
	}
	if err := Check("rdkafka", nil); err == nil || !strings.Contains(err.Error(), "unknown client") {
		t.Errorf("unknown client: %v", err)
	}
	for _, tc := range []struct{ client, broker, release, key string }{
		{"java", "4.3.0", "4.3.0", "java@4.3.0"},       // plain java follows the brokers
		{"java@3.9.1", "4.3.0", "3.9.1", "java@3.9.1"}, // a pinned release wins
		{"franz-go", "4.3.0", "", "franz-go"},          // one franz-go driver whatever the brokers
	} {
		if got := Release(tc.client, tc.broker); tc.release != "" && got != tc.release {
			t.Errorf("Release(%s, %s) = %s, want %s", tc.client, tc.broker, got, tc.release)
		}
		if got := Key(tc.client, tc.broker); got != tc.key {
			t.Errorf("Key(%s, %s) = %s, want %s", tc.client, tc.broker, got, tc.key)
		}
	}
}
