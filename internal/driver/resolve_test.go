package driver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/maven"
	"github.com/prodlab/prodlab/internal/testtier"
)

// fakeMavenRepo serves a kafka-clients maven-metadata.xml listing versions
// and points Resolve at it, with empty local caches (HOME, PRODLAB_CACHE);
// the returned func counts the metadata requests.
func fakeMavenRepo(t *testing.T, versions ...string) func() int {
	t.Helper()
	var b strings.Builder
	b.WriteString("<metadata><groupId>org.apache.kafka</groupId><artifactId>kafka-clients</artifactId><versioning><versions>")
	for _, v := range versions {
		b.WriteString("<version>" + v + "</version>")
	}
	b.WriteString("</versions></versioning></metadata>")
	requests := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/org/apache/kafka/kafka-clients/maven-metadata.xml" {
			http.NotFound(w, r)
			return
		}
		requests++
		_, _ = w.Write([]byte(b.String()))
	}))
	t.Cleanup(srv.Close)
	t.Setenv(maven.RepoEnv, srv.URL)
	t.Setenv(maven.CacheEnv, t.TempDir())
	t.Setenv("HOME", t.TempDir())
	return func() int { return requests }
}

// localJar puts kafka-clients version into the (fake) ~/.m2 repository.
func localJar(t *testing.T, version string) {
	t.Helper()
	dir := filepath.Join(os.Getenv("HOME"), ".m2", "repository", "org", "apache", "kafka", "kafka-clients", version)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kafka-clients-"+version+".jar"), []byte("jar"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResolve(t *testing.T) {
	for _, tc := range []struct {
		client  string
		local   string   // a release in ~/.m2
		release bool     // want a *ReleaseError
		want    []string // in the message
	}{
		{client: "franz-go"},
		{client: "java"}, // follows the brokers' release
		{client: "java@4.4.0", local: "4.4.0"},
		{client: "rdkafka", want: []string{`unknown client "rdkafka"`}},
		{client: "java@0.0.0", release: true, want: []string{"client java@0.0.0: kafka-clients 0.0.0 is not supported", "3.0 and later", "3.0.2 to 4.4.0"}},
		{client: "java@2.8.1", release: true, want: []string{"not supported"}},
		{client: "java@99.1", release: true, want: []string{"client java@99.1: kafka-clients 99.1 does not exist", "nearest releases are 4.3.1 and 4.4.0", "supported: 3.0.2 to 4.4.0"}},
		{client: "java@4.4", release: true, want: []string{"the nearest release is 4.4.0 (supported: 3.0.2 to 4.4.0)"}}, // 4.4's line holds just 4.4.0
		{client: "java@4.0.1", release: true, want: []string{"the nearest release is 4.0.2 ("}},                         // the 4.0 line's final release, not 4.0.0-rc1
	} {
		t.Run(tc.client, func(t *testing.T) {
			fakeMavenRepo(t, "2.8.1", "3.0.2", "3.9.1", "4.0.0-rc1", "4.0.2", "4.3.1", "4.4.0")
			if tc.local != "" {
				localJar(t, tc.local)
			}
			err := Resolve(context.Background(), tc.client)
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Resolve(%q) = %v, want nil", tc.client, err)
				}
				return
			}
			var re *ReleaseError
			if err == nil || errors.As(err, &re) != tc.release {
				t.Fatalf("Resolve(%q) = %v (%T), want a release error: %v", tc.client, err, err, tc.release)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Resolve(%q) = %q, want %q in it", tc.client, err, w)
				}
			}
		})
	}
}

// TestResolveAll: one problem per distinct client name, in order.
func TestResolveAll(t *testing.T) {
	fakeMavenRepo(t, "3.0.2", "4.4.0")
	err := ResolveAll(context.Background(), []string{"java@99.1", "franz-go", "java@0.0.0", "java@99.1", "java@99.1"})
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "client java@99.1:") || !strings.HasPrefix(lines[1], "client java@0.0.0:") {
		t.Errorf("ResolveAll = %q, want one line for java@99.1 then one for java@0.0.0", err)
	}
}

// TestResolveRealMaven asks Maven Central itself (no broker, no worker).
func TestResolveRealMaven(t *testing.T) {
	testtier.Shared(t)
	if testing.Short() {
		t.Skip("asks the Maven repository")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if _, err := maven.Versions(ctx, "org.apache.kafka", "kafka-clients"); err != nil {
		t.Skipf("Maven repository not reachable: %v", err)
	}
	for _, tc := range []struct {
		client string
		ok     bool
	}{{"java@4.4.0", true}, {"java@3.0.2", true}, {"java@99.1", false}, {"java@0.0.0", false}} {
		start := time.Now()
		err := Resolve(ctx, tc.client)
		var re *ReleaseError
		if tc.ok != (err == nil) || (!tc.ok && !errors.As(err, &re)) {
			t.Errorf("Resolve(%s) = %v, want ok %v", tc.client, err, tc.ok)
		}
		t.Logf("%s: %v in %v", tc.client, err, time.Since(start).Round(time.Millisecond))
	}
}

// TestResolveNoSupportedRelease: a repository without one supported
// release is told as such, not a crash on an empty range.
func TestResolveNoSupportedRelease(t *testing.T) {
	fakeMavenRepo(t, "2.8.1", "3.1.0-rc1")
	err := Resolve(context.Background(), "java@3.1.0")
	var re *ReleaseError
	if !errors.As(err, &re) || !strings.Contains(err.Error(), "does not exist in the Maven repository; it lists no supported release") {
		t.Fatalf("Resolve(java@3.1.0) = %v, want a release error saying no release is supported", err)
	}
}
