package driver

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/testtier"
)

// javaTestReleases span the kafka-clients releases prodlab supports: the
// oldest 3.0, the last 3.x, the first 4.x, and the two newest.
var javaTestReleases = []string{"3.0.2", "3.9.1", "4.0.2", "4.3.1", "4.4.0"}

// missingPasswords lists the properties a ConfigDef types as PASSWORD that
// table lacks, sorted.
func missingPasswords(def *JavaConfigDef, table []string) []string {
	var out []string
	for _, k := range def.Passwords() {
		if !slices.Contains(table, k) {
			out = append(out, k)
		}
	}
	return out
}

// TestMissingPasswords: the check below can fail.
func TestMissingPasswords(t *testing.T) {
	for _, tc := range []struct {
		name  string
		types map[string]string
		want  []string
	}{
		{"all known", map[string]string{"ssl.key.password": "PASSWORD", "linger.ms": "LONG"}, nil},
		{"a new password", map[string]string{"ssl.key.password": "PASSWORD", "x.token": "PASSWORD"}, []string{"x.token"}},
		{"named like one, typed otherwise", map[string]string{"ssl.keystore.location": "STRING"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := missingPasswords(&JavaConfigDef{Types: tc.types}, []string{"ssl.key.password"})
			if !slices.Equal(got, tc.want) {
				t.Errorf("missing = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestJavaPasswordsCoverConfigDef: every property a supported kafka-clients
// release types as PASSWORD is in secret.JavaPasswords (and so masked by
// secret.IsKey). It reads each release's ConfigDef through the worker.
func TestJavaPasswordsCoverConfigDef(t *testing.T) {
	testtier.Shared(t)
	jar := buildWorker(t)
	for _, v := range javaTestReleases {
		t.Run(v, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			def, err := ReadJavaConfigDef(ctx, v, jar)
			if err != nil {
				t.Fatal(err)
			}
			if def.Client != "kafka-clients "+v || len(def.Types) < 50 {
				t.Fatalf("configdef of %s: client %q, %d properties", v, def.Client, len(def.Types))
			}
			if miss := missingPasswords(def, secret.JavaPasswords); len(miss) > 0 {
				t.Errorf("kafka-clients %s types %v as PASSWORD; add them to secret.JavaPasswords", v, miss)
			}
			for _, k := range def.Passwords() {
				if !secret.IsKey(k) {
					t.Errorf("secret.IsKey(%q) = false", k)
				}
			}
			t.Logf("%s: %d properties, passwords %v", def.Client, len(def.Types), def.Passwords())
		})
	}
}

// slf4jNoBinding matches what slf4j-api 1.7 and 2.x print when no binding
// or provider is on the class path (then the client's log is lost).
var slf4jNoBinding = regexp.MustCompile(`SLF4J: (Failed to load class|No SLF4J providers|Defaulting to no-operation)`)

// TestJavaClientReleases runs a short trial with each supported
// kafka-clients release on the shared broker: the worker must use public
// client API only (4.4 moved AppInfoParser), report the release it runs,
// and log through its SLF4J binding (no "no binder" lines, the client's
// INFO lines present).
func TestJavaClientReleases(t *testing.T) {
	testtier.Shared(t)
	c, _ := sharedBroker(t)
	for _, v := range javaTestReleases {
		t.Run(v, func(t *testing.T) {
			j := startJavaDriver(t, v)
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			topic := servedTopic(ctx, t, "java-release-"+strings.ReplaceAll(v, ".", "-"), 2)
			const n = 3000
			res, err := j.Run(ctx, Trial{
				Bootstrap: c.Bootstrap(), Topic: topic, Settings: kafkaconf.Decode(map[string]string{"acks": "all", "linger.ms": "2"}),
				Records: n, RecordSize: 256, Payload: "json", Seed: 1, Tag: "rel-" + v, Timeout: 2 * time.Minute,
			})
			if err != nil {
				t.Fatal(err)
			}
			if j.Client() != "kafka-clients "+v || res.Client != j.Client() {
				t.Errorf("hello client %q, result client %q, want kafka-clients %s", j.Client(), res.Client, v)
			}
			if res.Acked != n || res.Failed != 0 || !res.Acks.Acked(n-1) {
				t.Errorf("acked %d failed %d of %d (errors %v)", res.Acked, res.Failed, n, res.Errors)
			}
			checkWorkerLog(t, j.LogPath(), v)
			t.Logf("%s: %d records in %v", res.Client, res.Acked, res.Elapsed.Round(time.Millisecond))
		})
	}
}

// checkWorkerLog fails when the worker log shows SLF4J without a binding
// or lacks the client's own INFO lines.
func checkWorkerLog(t *testing.T, path, version string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	if m := slf4jNoBinding.FindString(log); m != "" {
		t.Errorf("worker log %s has %q: the client's log is lost\n%s", path, m, log)
	}
	if !strings.Contains(log, "INFO org.apache.kafka.common.utils") || !strings.Contains(log, "Kafka version: "+version) {
		t.Errorf("worker log %s lacks the client's INFO lines:\n%s", path, log)
	}
}

// TestJavaWorkerLogsWithSLF4J2: the worker's log binding also serves
// slf4j-api 2.x (a ServiceLoader provider, where 1.7 looks for
// StaticLoggerBinder): kafka-clients 4.4.0 with its slf4j-api swapped for
// 2.0.17 logs the same.
func TestJavaWorkerLogsWithSLF4J2(t *testing.T) {
	testtier.Shared(t)
	jar := buildWorker(t)
	c, _ := sharedBroker(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const v = "4.4.0"
	cp, err := javaClassPath(ctx, v, jar)
	if err != nil {
		t.Fatal(err)
	}
	api2, err := maven.Resolve(ctx, "slf4j-api-2.0.17", "org.slf4j:slf4j-api:2.0.17")
	if err != nil {
		t.Fatal(err)
	}
	cp = slices.DeleteFunc(cp, func(p string) bool { return strings.Contains(filepath.Base(p), "slf4j-api-1.") })
	cp = append(cp, api2...)
	j, err := startJava(ctx, v, cp, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := j.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	topic := servedTopic(ctx, t, "java-slf4j2", 1)
	res, err := j.Run(ctx, Trial{Bootstrap: c.Bootstrap(), Topic: topic, Records: 500, RecordSize: 256, Payload: "json", Timeout: time.Minute})
	if err != nil || res.Acked != 500 {
		t.Fatalf("run: %v (result %+v)", err, res)
	}
	checkWorkerLog(t, j.LogPath(), v)
}
