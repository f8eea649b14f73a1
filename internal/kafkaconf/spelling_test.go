package kafkaconf

import (
	"reflect"
	"testing"
)

// TestLibrdkafkaSpelledTwice groups the spellings of one librdkafka setting.
func TestLibrdkafkaSpelledTwice(t *testing.T) {
	for _, tc := range []struct {
		names []string
		want  [][]string
	}{
		{[]string{"acks", "linger.ms", "batch.size"}, nil},
		{[]string{"request.required.acks", "acks", "linger.ms"}, [][]string{{"acks", "request.required.acks"}}},
		{[]string{"queue.buffering.max.ms", "retries", "linger.ms", "message.send.max.retries"},
			[][]string{{"linger.ms", "queue.buffering.max.ms"}, {"message.send.max.retries", "retries"}}},
		{[]string{"compression.type", "compression.codec", "max.in.flight", "max.in.flight.requests.per.connection"},
			[][]string{{"compression.codec", "compression.type"}, {"max.in.flight", "max.in.flight.requests.per.connection"}}},
		{[]string{"not.a.setting", "acks"}, nil},
	} {
		if got := LibrdkafkaSpelledTwice(tc.names); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("LibrdkafkaSpelledTwice(%v) = %v, want %v", tc.names, got, tc.want)
		}
	}
}

// TestLibrdkafkaCheckValue: numbers outside librdkafka's own range, or not
// numbers, are refused as written, before librdkafka converts (and wraps)
// them; other types are librdkafka's to judge.
func TestLibrdkafkaCheckValue(t *testing.T) {
	for _, tc := range []struct {
		name, v, wantErr string
	}{
		{"batch.num.messages", "1000", ""},
		{"batch.num.messages", "4294968296", `batch.num.messages must be an integer in 1..1000000, got "4294968296"`},
		{"batch.num.messages", "0", `batch.num.messages must be an integer in 1..1000000, got "0"`},
		{"batch.num.messages", "1e3", `batch.num.messages must be an integer in 1..1000000, got "1e3"`},
		{"batch.num.messages", "010", `batch.num.messages must be an integer in 1..1000000, got "010"`}, // 8 to librdkafka
		{"queue.buffering.max.kbytes", "1099511627776", `queue.buffering.max.kbytes must be an integer in 1..2147483647, got "1099511627776"`},
		{"request.required.acks", "-1", ""},
		{"linger.ms", "0.5", ""},
		{"linger.ms", "1e9", `linger.ms must be a number in 0..900000, got "1e9"`},
		{"linger.ms", "NaN", `linger.ms must be a number in 0..900000, got "NaN"`},
		{"compression.codec", "brotli", ""}, // an enum: librdkafka's check names its values
		{"client.id", "anything", ""},
	} {
		p, ok := Librdkafka(tc.name)
		if !ok {
			t.Fatalf("%s is not a librdkafka producer property", tc.name)
		}
		err := p.CheckValue(tc.v)
		if (err == nil) != (tc.wantErr == "") || (err != nil && err.Error() != tc.wantErr) {
			t.Errorf("%s=%s: %v, want %q", tc.name, tc.v, err, tc.wantErr)
		}
	}
}
