package driver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/testtier"
)

const (
	testWarn  = "2026-01-01T00:00:00.000Z [kafka-producer-network-thread | producer-1] WARN org.apache.kafka.clients.NetworkClient - [Producer clientId=producer-1] Connection to node -1 (/127.0.0.1:9092) terminated during authentication.\n"
	testWarn2 = "2026-01-01T00:00:01.000Z [kafka-producer-network-thread | producer-1] WARN org.apache.kafka.clients.NetworkClient - [Producer clientId=producer-1] Connection to node -2 (/127.0.0.1:9093) terminated during authentication.\n"
	testError = "2026-01-01T00:00:02.000Z [main] ERROR org.apache.kafka.clients.producer.KafkaProducer - failed\n"
	testInfo  = "2026-01-01T00:00:00.000Z [main] INFO org.apache.kafka.common.utils.AppInfoParser - Kafka version: 4.4.0\n"
)

// TestLogLinesExplain: which lines a failed trial's error quotes.
func TestLogLinesExplain(t *testing.T) {
	for _, tc := range []struct {
		name    string
		before  string   // written before the trial's mark
		during  []string // writes during the trial (lines may be split)
		want    []string // in the explanation, in order
		notWant []string
	}{
		{"no warnings: nothing to say", testWarn, []string{testInfo}, nil, []string{"worker log"}},
		{"warnings before the trial are not its own", testWarn, []string{testInfo, testError}, []string{"3: " + testError[:30]}, []string{"1: "}},
		{"a line split over writes", testInfo, []string{testError[:10], testError[10:]}, []string{"2: " + strings.TrimSpace(testError)}, nil},
		{"repeats quoted once with a count", "", []string{testWarn, testInfo, testWarn2, testError}, []string{"1: " + strings.TrimSpace(testWarn) + " (2 times)", "4: "}, []string{"3: "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := newLogLines("")
			if err != nil {
				t.Fatal(err)
			}
			_, _ = l.Write([]byte(tc.before))
			mark := l.mark()
			for _, w := range tc.during {
				_, _ = l.Write([]byte(w))
			}
			got := l.explain(mark)
			last := -1
			for _, w := range tc.want {
				i := strings.Index(got, w)
				if i <= last {
					t.Errorf("explanation lacks %q (in order):\n%s", w, got)
				}
				last = i
			}
			for _, w := range tc.notWant {
				if strings.Contains(got, w) {
					t.Errorf("explanation has %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestLogLinesCountsExistingFile: line numbers continue the appended file.
func TestLogLinesCountsExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "java-x.log")
	if err := os.WriteFile(path, []byte(testInfo+testInfo+testInfo), 0o644); err != nil {
		t.Fatal(err)
	}
	l, err := newLogLines(path)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = l.Write([]byte(testError))
	if got := l.explain(0); !strings.Contains(got, "worker log "+path+":\n  4: ") {
		t.Errorf("explain = %q, want line 4 of %s", got, path)
	}
}

// TestJavaFailureQuotesClientLog: a SASL client against a plaintext broker
// only times out ("not present in metadata"); the client's own WARN lines
// say why, and the trial's errors quote them with the log file.
func TestJavaFailureQuotesClientLog(t *testing.T) {
	testtier.Shared(t)
	j := startJavaDriver(t, "4.4.0")
	c, _ := sharedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	topic := servedTopic(ctx, t, "java-sasl-misconfigured", 1)
	res, err := j.Run(ctx, Trial{
		Bootstrap: c.Bootstrap(), Topic: topic, Records: 3, RecordSize: 256, Payload: "json", Timeout: time.Minute,
		Settings: kafkaconf.Decode(map[string]string{
			"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN",
			"sasl.jaas.config": `org.apache.kafka.common.security.plain.PlainLoginModule required username="u" password="p";`,
			"max.block.ms":     "3000",
		}),
	})
	if err != nil {
		t.Fatalf("want failed records, got error %v", err)
	}
	if res.Failed == 0 {
		t.Fatalf("no record failed: %+v", res)
	}
	if !strings.Contains(res.Log, "worker log "+j.LogPath()+":\n  ") || !strings.Contains(res.Log, "WARN org.apache.kafka") {
		t.Errorf("the result does not quote the client's log:\n%s", res.Log)
	}
	t.Logf("trial error: %s\n%s", TopErrors(res.Errors, 3), res.Log)

	// A configuration the constructor refuses: a *JavaError carrying the
	// cause the client wraps two levels down.
	_, err = j.Run(ctx, Trial{
		Bootstrap: c.Bootstrap(), Topic: topic, Records: 1, RecordSize: 256, Payload: "json", Timeout: time.Minute,
		Settings: kafkaconf.Decode(map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": "PLAIN", "sasl.jaas.config": "not a JAAS line"}),
	})
	var je *JavaError
	if !errors.As(err, &je) {
		t.Fatalf("bad sasl.jaas.config: err = %v, want *JavaError", err)
	}
	if !strings.Contains(je.Message, "root cause IllegalArgumentException") || !strings.Contains(je.Message, "JAAS config") {
		t.Errorf("bad sasl.jaas.config: %q lacks the root cause", je.Message)
	}
	t.Logf("bad sasl.jaas.config: %v", err)
}

// TestCappedWriter: a worker's log keeps its first bytes up to the bound,
// then one line saying the rest was dropped; every write still succeeds
// (the worker's stderr must keep draining).
func TestCappedWriter(t *testing.T) {
	var b strings.Builder
	c := &cappedWriter{w: &b, left: 10}
	for _, s := range []string{"12345", "67890abc", "more", "and more"} {
		if n, err := c.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("Write(%q) = %d, %v", s, n, err)
		}
	}
	want := "1234567890\n[prodlab: the worker's log reached 64 MiB; the rest is not kept]\n"
	if b.String() != want {
		t.Errorf("log %q, want %q", b.String(), want)
	}
}
