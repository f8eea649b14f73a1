package maven

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestVersions(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		status     int
		want       []string
		err        string
	}{
		{"listed", "<metadata><versioning><versions><version>3.0.2</version><version>4.4.0</version></versions></versioning></metadata>", 200, []string{"3.0.2", "4.4.0"}, ""},
		{"missing artifact", "", 404, nil, "404"},
		{"not XML", "{}", 200, nil, "read "},
		{"no versions", "<metadata/>", 200, nil, "lists none"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path != "/org/apache/kafka/kafka-clients/maven-metadata.xml" {
					http.NotFound(w, r)
					return
				}
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			}))
			defer srv.Close()
			t.Setenv(RepoEnv, srv.URL+"/")
			got, err := Versions(context.Background(), "org.apache.kafka", "kafka-clients")
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "org.apache.kafka:kafka-clients") {
					t.Fatalf("Versions = %v, %v; want an error naming the artifact and %q", got, err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("Versions = %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestLocal(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv(CacheEnv, t.TempDir())
	dir := filepath.Join(home, ".m2", "repository", "org", "apache", "kafka", "kafka-clients", "4.4.0")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kafka-clients-4.4.0.jar"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		version string
		want    bool
	}{{"4.4.0", true}, {"4.3.1", false}, {"../x", false}} {
		if got := Local("kafka-clients-"+tc.version, "org.apache.kafka", "kafka-clients", tc.version); got != tc.want {
			t.Errorf("Local(%s) = %v, want %v", tc.version, got, tc.want)
		}
	}
}
