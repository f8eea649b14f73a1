package expfile

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// parseErrors parses src as x.yaml with sets and returns the messages of
// the Errors it fails with (nil when it parses).
func parseErrors(t *testing.T, src string, sets ...string) []string {
	t.Helper()
	_, err := Parse("x.yaml", []byte(src), sets)
	if err == nil {
		return nil
	}
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("Parse error = %v (%T), want Errors", err, err)
	}
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	return got
}

// refusal is one experiment that must be refused, with the exact messages.
type refusal struct {
	name string
	src  string
	sets []string
	want []string
}

// runRefusals checks each refusal: the messages, with file:line:col.
func runRefusals(t *testing.T, tests []refusal) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseErrors(t, tt.src, tt.sets...)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// acceptance is one experiment just inside a limit, which must parse.
type acceptance struct {
	name string
	src  string
}

// runAccepted checks that each experiment parses, so that the refusals
// are not too eager.
func runAccepted(t *testing.T, tests []acceptance) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := parseErrors(t, tt.src); got != nil {
				t.Errorf("refused:\n%s", strings.Join(got, "\n"))
			}
		})
	}
}

// TestRefusedKafkaValues checks values that used to be accepted and then
// failed every trial once started (a payload that cannot be generated,
// topic configs or a partition count the broker refuses): each is refused
// at load time, at its key, with the limit and a way out.
func TestRefusedKafkaValues(t *testing.T) {
	empty := filepath.Join(t.TempDir(), "blank.txt")
	if err := os.WriteFile(empty, []byte("\n\r\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []refusal{
		// json events need 100 bytes (payload.MinJSONSize); json is the
		// default payload.
		{name: "json record too small", src: "name: x\nworkload: {record.size: 50}\n",
			want: []string{`x.yaml:2:12: workload.record.size 50 is below the json payload's minimum of 100 bytes; use record.size ≥ 100, or payload: random or text`}},
		// A matrix value below the minimum names its scenario.
		{name: "json record too small in matrix", src: "name: x\nmatrix:\n  record.size: [64, 1024]\n",
			want: []string{`x.yaml:3:17: scenario "record.size=64": workload.record.size 64 is below the json payload's minimum of 100 bytes; use record.size ≥ 100, or payload: random or text`}},
		// /dev/null has no line to send.
		{name: "payload /dev/null", src: "name: x\nworkload: {payload: file:/dev/null}\n",
			want: []string{`x.yaml:2:21: workload.payload file "/dev/null" has no non-empty lines (each record's value is one line)`}},
		// Nor has a file of blank lines.
		{name: "payload blank file", src: "name: x\nworkload: {payload: \"file:" + empty + "\"}\n",
			want: []string{`x.yaml:2:21: workload.payload file "` + empty + `" has no non-empty lines (each record's value is one line)`}},
		// A cleanup policy the broker does not know.
		{name: "cleanup.policy", src: "name: x\ntopic: {configs: {cleanup.policy: banana}}\n",
			want: []string{`x.yaml:2:35: cleanup.policy must be a list of compact, delete, got "banana"`}},
		// Each element of a list is checked.
		{name: "cleanup.policy list", src: "name: x\ntopic: {configs: {cleanup.policy: [delete, banana]}}\n",
			want: []string{`x.yaml:2:35: cleanup.policy must be a list of compact, delete, got "banana"`}},
		// Topic compression uses the broker's names ("uncompressed", not "none").
		{name: "topic compression.type", src: "name: x\ntopic: {configs: {compression.type: none}}\n",
			want: []string{`x.yaml:2:37: compression.type must be one of uncompressed, zstd, lz4, snappy, gzip, producer, got "none"`}},
		// Enumerations are case-sensitive, as Kafka's ValidString.
		{name: "message.timestamp.type", src: "name: x\ntopic: {configs: {message.timestamp.type: createtime}}\n",
			want: []string{`x.yaml:2:43: message.timestamp.type must be one of CreateTime, LogAppendTime, got "createtime"`}},
		// Ranges of LogConfig: segments of at least 1 MiB, gzip 1..9 or -1,
		// a ratio in 0..1, throttled replicas as partition:broker.
		{name: "topic ranges", src: "name: x\ntopic:\n  configs:\n    segment.bytes: 1048575\n    compression.gzip.level: 0\n" +
			"    min.cleanable.dirty.ratio: 1.5\n    leader.replication.throttled.replicas: x\n",
			want: []string{
				`x.yaml:4:20: segment.bytes must be an integer ≥ 1048576, got "1048575"`,
				`x.yaml:5:29: compression.gzip.level must be an integer in 1..9 or -1, got "0"`,
				`x.yaml:6:32: min.cleanable.dirty.ratio must be a number in 0..1, got "1.5"`,
				`x.yaml:7:44: leader.replication.throttled.replicas must be "*" or a list of partitionId:brokerId, got "x"`,
			}},
		// More partitions than the controller creates in one request.
		{name: "partitions", src: "name: x\ntopic: {partitions: 100000}\n",
			want: []string{`x.yaml:2:9: topic.partitions must be at most 9999 here, got 100000: Kafka's controller writes at most 10000 records per request (1 for the topic, 1 per topic config, 1 per partition)`}},
		// Each topic config takes one record of the request.
		{name: "partitions with configs", src: "name: x\ntopic: {partitions: 9999, configs: {retention.ms: -1}}\n",
			want: []string{`x.yaml:2:9: topic.partitions must be at most 9998 here, got 9999: Kafka's controller writes at most 10000 records per request (1 for the topic, 1 per topic config, 1 per partition)`}},
	}
	runRefusals(t, tests)
}

// TestAcceptedKafkaValues checks the values just inside each limit of
// TestRefusedKafkaValues.
func TestAcceptedKafkaValues(t *testing.T) {
	runAccepted(t, []acceptance{
		// The json minimum itself.
		{"json minimum", "name: x\nworkload: {record.size: 100}\n"},
		// Small records are fine with other payloads.
		{"small random", "name: x\nworkload: {record.size: 1, payload: random}\n"},
		// Both policies, and the empty list Kafka accepts.
		{"cleanup.policy", "name: x\ntopic: {configs: {cleanup.policy: [compact, delete]}}\n"},
		{"empty cleanup.policy", "name: x\ntopic: {configs: {cleanup.policy: \"\"}}\n"},
		// gzip's default level, throttling every replica, a 1 MiB segment.
		{"topic values", "name: x\ntopic: {configs: {compression.gzip.level: -1, leader.replication.throttled.replicas: \"*\", " +
			"follower.replication.throttled.replicas: [\"0:1\", \"1:2\"], segment.bytes: 1048576, min.cleanable.dirty.ratio: 1}}\n"},
		// 9999 partitions and no configs: 10000 records.
		{"partitions", "name: x\ntopic: {partitions: 9999}\n"},
	})
}

// roundTrip parses src, writes it with YAML() and parses that again, for
// tests that a section survives the saved experiment.yaml.
func roundTrip(t *testing.T, src string) (e, back *Experiment, out []byte) {
	t.Helper()
	e = mustParse(t, src)
	out, err := e.YAML()
	if err != nil {
		t.Fatal(err)
	}
	return e, mustParse(t, string(out)), out
}
