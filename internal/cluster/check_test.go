package cluster

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/maven"
)

// releasesXML is a Maven Central maven-metadata.xml listing some releases.
const releasesXML = `<?xml version="1.0" encoding="UTF-8"?>
<metadata><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId>
<versioning><latest>4.4.0</latest><release>4.4.0</release><versions>
<version>3.9.0</version><version>3.9.1</version><version>4.0.0</version>
<version>4.3.0</version><version>4.3.1</version><version>4.4.0</version>
</versions></versioning></metadata>`

// fakeMaven makes release resolution succeed for the releases in ok only,
// and serves the broker's release list through maven.RepoEnv (or a 500
// when list is false), for one test.
func fakeMaven(t *testing.T, ok []string, list bool) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/org/apache/kafka/kafka_2.13/maven-metadata.xml" {
			http.NotFound(w, r)
			return
		}
		if !list {
			http.Error(w, "down", http.StatusInternalServerError)
			return
		}
		_, _ = w.Write([]byte(releasesXML))
	}))
	t.Cleanup(srv.Close)
	t.Setenv(maven.RepoEnv, srv.URL)
	oldResolve := resolveRelease
	t.Cleanup(func() { resolveRelease = oldResolve })
	resolveRelease = func(_ context.Context, release string) (dist, error) {
		for _, r := range ok {
			if r == release {
				return dist{version: release}, nil
			}
		}
		return dist{}, errors.New("resolve kafka " + release + ": Could not find artifact")
	}
}

// distDir makes a directory holding the given files (paths relative to it).
func distDir(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if !strings.HasSuffix(f, "/") {
			if err := os.WriteFile(p, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dir
}

// TestCheckKafka: what cannot run is refused with a message that says
// what is wrong; what can run passes.
func TestCheckKafka(t *testing.T) {
	good := distDir(t, "libs/kafka_2.13-4.4.0.jar", "libs/kafka-clients-4.4.0.jar")
	file := filepath.Join(distDir(t, "kafka.tgz"), "kafka.tgz")
	cases := []struct {
		name  string
		kafka string
		list  bool   // Maven Central's release list is reachable
		want  string // "" when the check must pass
	}{
		{"default release", "", true, ""},
		{"older release", "3.9.1", true, ""},
		{"no such release", "99.0.0", true, // which releases are near: maven.Nearest
			"kafka 99.0.0: Maven Central has no such Kafka release; releases near it: 4.3.1, 4.4.0; the newest is 4.4.0"},
		{"released but broken", "4.3.1", true, "kafka 4.3.1 is released, but its broker does not resolve from Maven Central with all its dependencies: resolve kafka 4.3.1: Could not find artifact"},
		{"offline", "99.0.0", false, "Could not find artifact\n(could not list the releases on Maven Central either: list versions of org.apache.kafka:kafka_2.13: "},
		{"distribution", good, true, ""},
		{"missing directory", filepath.Join(good, "nope"), true, "neither a release version like " + DefaultKafka + " nor an existing directory"},
		{"a file", file, true, "a file, not a Kafka distribution directory"},
		{"empty directory", distDir(t), true, "no libs/ directory; want an unpacked Kafka distribution"},
		{"libs without jars", distDir(t, "libs/README"), true, "libs/ holds no jars"},
		{"libs without the broker jar", distDir(t, "libs/kafka-clients-4.4.0.jar"), true, "libs/ holds no Kafka broker jar (kafka_2.13-VERSION.jar)"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			fakeMaven(t, []string{DefaultKafka, "3.9.1"}, tc.list)
			err := CheckKafka(t.Context(), tc.kafka)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("CheckKafka(%q) = %v, want nil", tc.kafka, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("CheckKafka(%q) = %v, want an error containing %q", tc.kafka, err, tc.want)
			}
		})
	}
}

// TestCheckKafkasOnePerProblem: each distinct Kafka is checked once, ""
// being the default, so a problem shared by many scenarios is told once.
func TestCheckKafkasOnePerProblem(t *testing.T) {
	fakeMaven(t, []string{DefaultKafka}, true)
	empty := distDir(t)
	err := CheckKafkas(t.Context(), "99.0.0", "", empty, "99.0.0", DefaultKafka, empty, "98.0.0")
	if err == nil {
		t.Fatal("CheckKafkas passed releases that do not exist")
	}
	msg := err.Error()
	for sub, n := range map[string]int{"kafka 99.0.0:": 1, "kafka 98.0.0:": 1, "no libs/": 1} {
		if got := strings.Count(msg, sub); got != n {
			t.Errorf("%q told %d times, want %d:\n%s", sub, got, n, msg)
		}
	}
	if err := CheckKafkas(t.Context(), "", DefaultKafka); err != nil {
		t.Errorf("CheckKafkas(default) = %v", err)
	}
}

// TestListReleasesLive asks the real Maven Central (skipped offline or in
// -short mode): the default release must be listed and resolve.
func TestListReleasesLive(t *testing.T) {
	if testing.Short() {
		t.Skip("asks Maven Central")
	}
	versions, err := maven.Versions(t.Context(), kafkaGroup, kafkaArtifact)
	if err != nil {
		t.Skipf("Maven Central unreachable: %v", err)
	}
	for _, v := range []string{DefaultKafka, "4.3.0", "3.9.1"} {
		found := false
		for _, x := range versions {
			found = found || x == v
		}
		if !found {
			t.Errorf("Maven Central does not list %s (lists %d releases)", v, len(versions))
		}
	}
	if err := CheckKafka(t.Context(), "99.0.0"); err == nil || !strings.Contains(err.Error(), "no such Kafka release") {
		t.Errorf("CheckKafka(99.0.0) = %v, want no such release", err)
	}
}
