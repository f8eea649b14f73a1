package expfile

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestOneSpellingOneOwner: one librdkafka setting in two spellings, a
// setting prodlab keeps for itself, and one client named twice are each
// refused before anything starts, at the key or value written; the same
// files without the second spelling parse.
func TestOneSpellingOneOwner(t *testing.T) {
	tests := []struct {
		name string
		src  string
		sets []string
		want []string // nil: parses
	}{
		{name: "acks twice across producer and matrix",
			src: "name: x\nclient: librdkafka\nproducer: {request.required.acks: 0, enable.idempotence: false}\nmatrix:\n  acks: [all, 1]\n",
			want: []string{
				`x.yaml:5:10: scenario "acks=all": acks and request.required.acks are one librdkafka setting (request.required.acks) written 2 ways: librdkafka keeps one of them, whatever the labels say; write it once`,
				`x.yaml:5:15: scenario "acks=1": acks and request.required.acks are one librdkafka setting (request.required.acks) written 2 ways: librdkafka keeps one of them, whatever the labels say; write it once`,
			}},
		{name: "linger twice in producer",
			src: "name: x\nclient: librdkafka\nproducer: {linger.ms: 5, queue.buffering.max.ms: 20}\n",
			want: []string{
				`x.yaml:3:12: linger.ms and queue.buffering.max.ms are one librdkafka setting (queue.buffering.max.ms) written 2 ways: librdkafka keeps one of them, whatever the labels say; write it once`,
			}},
		{name: "by --set", src: "name: x\nclient: librdkafka\nproducer: {retries: 3}\n", sets: []string{"message.send.max.retries=5"},
			want: []string{
				`--set message.send.max.retries=5: message.send.max.retries and retries are one librdkafka setting (message.send.max.retries) written 2 ways: librdkafka keeps one of them, whatever the labels say; write it once`,
			}},
		{name: "one spelling each", src: "name: x\nclient: librdkafka\nproducer: {request.required.acks: all, queue.buffering.max.ms: 5}\n"},
		{name: "java has no aliases to mix", src: "name: x\nclient: java\nproducer: {acks: all, linger.ms: 5}\n"},
		{name: "bootstrap.servers", src: "name: x\nproducer: {bootstrap.servers: 10.0.0.1:9092}\n",
			want: []string{
				`x.yaml:2:12: producer property bootstrap.servers is prodlab's to set, not a scenario's: the cluster comes from cluster: (prodlab starts it) or --bootstrap`,
			}},
		{name: "plugin.library.paths", src: "name: x\nclient: librdkafka\nmatrix:\n  plugin.library.paths: [/tmp/evil.so]\n",
			want: []string{
				`x.yaml:4:26: scenario "plugin.library.paths=/tmp/evil.so": producer property plugin.library.paths is prodlab's to set, not a scenario's: it loads a shared library into the client: prodlab runs only the client's own code`,
			}},
		{name: "no reporters loads nothing", src: "name: x\nproducer: {metric.reporters: \"\"}\n"},
		{name: "librdkafka twice", src: "name: x\nmatrix:\n  client: [librdkafka, librdkafka@2.11.1]\n",
			want: []string{
				`x.yaml:3:24: value "librdkafka@2.11.1" of matrix axis "client" names client librdkafka@2.11.1 again (as "librdkafka"): one client, two spellings`,
			}},
		{name: "java twice at a fixed release", src: "name: x\ncluster: {kafka: 4.3.0}\nmatrix:\n  client: [java, java@4.3.0]\n",
			want: []string{
				`x.yaml:4:18: value "java@4.3.0" of matrix axis "client" names client java@4.3.0 again (as "java"): one client, two spellings`,
			}},
		{name: "java beside a varied release", src: "name: x\nmatrix:\n  client: [java, java@4.3.0]\n  kafka: [4.3.0, 4.4.0]\n"},
		// cluster.security sets the trust store and the login: in either
		// client's words a scenario's own would be replaced without a word.
		{name: "librdkafka's login under SASL", src: "name: x\nclient: librdkafka\ncluster: {security: sasl_plaintext}\nproducer: {sasl.username: bob, ssl.ca.location: /ca.pem}\n",
			want: []string{
				`x.yaml:4:12: producer setting sasl.username is set by cluster.security=sasl_plaintext (prodlab's brokers, their SCRAM user and CA); drop it, or drop cluster.security and use --bootstrap for a cluster secured your way`,
			}},
		{name: "librdkafka's CA under TLS", src: "name: x\nclient: librdkafka\ncluster: {security: ssl}\nproducer: {sasl.mechanisms: PLAIN, ssl.ca.location: /ca.pem}\n",
			want: []string{
				`x.yaml:4:36: producer setting ssl.ca.location is set by cluster.security=ssl (prodlab's brokers, their SCRAM user and CA); drop it, or drop cluster.security and use --bootstrap for a cluster secured your way`,
			}},
		// A transaction open as long as the coordinator allows is aborted by
		// it: every commit would fail late.
		{name: "duration at franz-go's default timeout", src: "name: x\nclient: franz-go\nproducer: {transactional.id: t, transaction.duration.ms: 40000}\n",
			want: []string{
				`x.yaml:3:33: transaction.duration.ms 40000 holds each transaction open at least as long as transaction.timeout.ms 40000, after which the coordinator aborts it: set transaction.timeout.ms above the duration, or a shorter duration`,
			}},
		{name: "duration above a written timeout", src: "name: x\nproducer: {transactional.id: t, transaction.duration.ms: 5000, transaction.timeout.ms: 2000}\n",
			want: []string{
				`x.yaml:2:33: transaction.duration.ms 5000 holds each transaction open at least as long as transaction.timeout.ms 2000, after which the coordinator aborts it: set transaction.timeout.ms above the duration, or a shorter duration`,
			}},
		{name: "records beyond the burst", src: "name: x\nworkload: {records: 1000}\nproducer: {transactional.id: t, transaction.records: 5000}\n",
			want: []string{
				`x.yaml:3:33: transaction.records 5000 is more than the trial's 1000 records: its one transaction would end with the last record, and the setting would mean nothing (write at most 1000)`,
			}},
		{name: "records within the burst", src: "name: x\nworkload: {records: 1000}\nproducer: {transactional.id: t, transaction.records: 1000}\n"},
		{name: "duration under java's default timeout", src: "name: x\nproducer: {transactional.id: t, transaction.duration.ms: 40000}\n"},
		{name: "labelled pair is an A/A", src: "name: x\nmatrix:\n  client:\n    - {label: a, client: librdkafka}\n    - {label: b, client: librdkafka@2.11.1}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := Parse("x.yaml", []byte(tt.src), tt.sets)
			if err == nil {
				_, err = e.Scenarios()
			}
			var got []string
			var errs Errors
			if errors.As(err, &errs) {
				for _, e := range errs {
					got = append(got, e.Error())
				}
			} else if err != nil {
				got = []string{err.Error()}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
