package maven

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// fakeMvn is a stand-in for mvn: it counts its runs in $FAKE_MVN_COUNT,
// fails with 40 numbered lines of output when $FAKE_MVN_FAIL is set, and
// otherwise copies two empty jars to -DoutputDirectory.
const fakeMvn = `#!/bin/sh
echo run >> "$FAKE_MVN_COUNT"
if [ -n "$FAKE_MVN_FAIL" ]; then
  i=1; while [ $i -le 40 ]; do echo "line $i"; i=$((i+1)); done
  exit 1
fi
for a in "$@"; do
  case "$a" in -DoutputDirectory=*) out="${a#-DoutputDirectory=}";; esac
done
sleep 0.2
mkdir -p "$out" && touch "$out/b-1.0.jar" "$out/a-1.0.jar" "$out/not-a-jar.txt"
`

// useFakeMvn points the package at fakeMvn and an empty cache, and returns
// a function that counts mvn runs so far.
func useFakeMvn(t *testing.T) (runs func() int) {
	t.Helper()
	dir := t.TempDir()
	script := filepath.Join(dir, "mvn")
	if err := os.WriteFile(script, []byte(fakeMvn), 0o755); err != nil {
		t.Fatal(err)
	}
	count := filepath.Join(dir, "count")
	t.Setenv("FAKE_MVN_COUNT", count)
	t.Setenv(CacheEnv, filepath.Join(dir, "cache"))
	old := mvnCommand
	mvnCommand = script
	t.Cleanup(func() { mvnCommand = old })
	return func() int {
		data, err := os.ReadFile(count)
		if err != nil {
			return 0
		}
		return strings.Count(string(data), "run")
	}
}

func TestCacheDir(t *testing.T) {
	t.Setenv(CacheEnv, "/tmp/prodlab-cache-test")
	got, err := CacheDir()
	if err != nil || got != "/tmp/prodlab-cache-test" {
		t.Fatalf("CacheDir() = %q, %v; want the $%s value", got, err, CacheEnv)
	}
	t.Setenv(CacheEnv, "")
	got, err = CacheDir()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(got) != "prodlab" {
		t.Errorf("default CacheDir() = %q, want .../prodlab", got)
	}
}

func TestValidateKeyAndCoordinates(t *testing.T) {
	keys := []struct {
		key string
		ok  bool
	}{
		{"kafka-4.3.0", true},         // the cluster package's key
		{"kafka-clients-3.9.1", true}, // the java worker's key
		{"", false},                   // empty
		{"..", false},                 // parent directory
		{".hidden", false},            // hidden / dot names
		{"a/b", false},                // path separator
		{"a b", false},                // space
	}
	for _, tc := range keys {
		if err := validateKey(tc.key); (err == nil) != tc.ok {
			t.Errorf("validateKey(%q) = %v, want ok=%v", tc.key, err, tc.ok)
		}
	}
	coords := []struct {
		in string
		ok bool
	}{
		{"org.apache.kafka:kafka_2.13:4.3.0", true}, // ordinary
		{"org.apache.kafka:kafka_2.13", false},      // no version
		{"a:b:c:d", false},                          // classifier form not supported
		{"a:<b>:1", false},                          // would need XML escaping
		{"a::1", false},                             // empty part
	}
	for _, tc := range coords {
		if _, err := parseCoordinate(tc.in); (err == nil) != tc.ok {
			t.Errorf("parseCoordinate(%q) = %v, want ok=%v", tc.in, err, tc.ok)
		}
	}
}

func TestRenderPom(t *testing.T) {
	c1, _ := parseCoordinate("org.apache.kafka:kafka_2.13:4.3.0")
	c2, _ := parseCoordinate("org.slf4j:slf4j-simple:1.7.36")
	pom := renderPom("kafka-4.3.0", []coordinate{c1, c2})
	for _, want := range []string{
		"<artifactId>kafka-4.3.0</artifactId>",
		"<packaging>pom</packaging>",
		"<groupId>org.apache.kafka</groupId>\n      <artifactId>kafka_2.13</artifactId>\n      <version>4.3.0</version>",
		"<groupId>org.slf4j</groupId>\n      <artifactId>slf4j-simple</artifactId>\n      <version>1.7.36</version>",
	} {
		if !strings.Contains(pom, want) {
			t.Errorf("pom lacks %q:\n%s", want, pom)
		}
	}
}

func TestResolveRunsMavenOnceAndReusesMarker(t *testing.T) {
	runs := useFakeMvn(t)
	ctx := context.Background()
	jars, err := Resolve(ctx, "k1", "g:a:1.0")
	if err != nil {
		t.Fatal(err)
	}
	if len(jars) != 2 || filepath.Base(jars[0]) != "a-1.0.jar" || filepath.Base(jars[1]) != "b-1.0.jar" || !filepath.IsAbs(jars[0]) {
		t.Fatalf("jars = %v, want absolute, sorted a-1.0.jar, b-1.0.jar", jars)
	}
	cache, _ := CacheDir()
	marker, err := os.ReadFile(filepath.Join(cache, "maven", "k1", markerName))
	if err != nil || string(marker) != "g:a:1.0\n" {
		t.Fatalf("marker = %q, %v; want the artifact list", marker, err)
	}
	if _, err := Resolve(ctx, "k1", "g:a:1.0"); err != nil {
		t.Fatal(err)
	}
	if n := runs(); n != 1 {
		t.Fatalf("mvn ran %d times for two identical resolutions, want 1", n)
	}
	// Same key, other artifacts: the marker does not match, resolve again.
	if _, err := Resolve(ctx, "k1", "g:a:1.0", "g:b:2.0"); err != nil {
		t.Fatal(err)
	}
	if n := runs(); n != 2 {
		t.Fatalf("mvn ran %d times after changing the artifacts, want 2", n)
	}
	// A lost marker (interrupted run) means resolve again.
	if err := os.Remove(filepath.Join(cache, "maven", "k1", markerName)); err != nil {
		t.Fatal(err)
	}
	if _, err := Resolve(ctx, "k1", "g:a:1.0", "g:b:2.0"); err != nil {
		t.Fatal(err)
	}
	if n := runs(); n != 3 {
		t.Fatalf("mvn ran %d times after losing the marker, want 3", n)
	}
}

func TestResolveConcurrentCallersShareOneRun(t *testing.T) {
	runs := useFakeMvn(t)
	var wg sync.WaitGroup
	errs := make([]error, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			jars, err := Resolve(context.Background(), "shared", "g:a:1.0")
			if err == nil && len(jars) != 2 {
				err = os.ErrInvalid
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("caller %d: %v", i, err)
		}
	}
	if n := runs(); n != 1 {
		t.Fatalf("mvn ran %d times for 6 concurrent callers, want 1", n)
	}
}

func TestResolveFailureReportsTailAndArtifact(t *testing.T) {
	runs := useFakeMvn(t)
	t.Setenv("FAKE_MVN_FAIL", "1")
	_, err := Resolve(context.Background(), "bad", "org.example:missing:9.9")
	if err == nil {
		t.Fatal("Resolve succeeded with a failing mvn")
	}
	msg := err.Error()
	for _, want := range []string{"org.example:missing:9.9", "line 40", "line " + strconv.Itoa(40-tailLines+1)} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if strings.Contains(msg, "line "+strconv.Itoa(40-tailLines)+"\n") {
		t.Errorf("error carries more than %d lines of output:\n%s", tailLines, msg)
	}
	cache, _ := CacheDir()
	if _, err := os.Stat(filepath.Join(cache, "maven", "bad", markerName)); err == nil {
		t.Error("a failed resolution left a .complete marker")
	}
	// A failure is not cached: the next call tries again.
	_, _ = Resolve(context.Background(), "bad", "org.example:missing:9.9")
	if n := runs(); n != 2 {
		t.Errorf("mvn ran %d times for two failing calls, want 2", n)
	}
}

func TestResolveRejectsBadInput(t *testing.T) {
	useFakeMvn(t)
	cases := []struct {
		name      string
		key       string
		artifacts []string
	}{
		{"bad key", "../x", []string{"g:a:1"}},
		{"no artifacts", "k", nil},
		{"bad coordinate", "k", []string{"g:a"}},
	}
	for _, tc := range cases {
		if _, err := Resolve(context.Background(), tc.key, tc.artifacts...); err == nil {
			t.Errorf("%s: Resolve succeeded, want an error", tc.name)
		}
	}
}

// TestResolveRealMaven resolves a small artifact with the real mvn.
func TestResolveRealMaven(t *testing.T) {
	if testing.Short() {
		t.Skip("runs mvn")
	}
	t.Setenv(CacheEnv, t.TempDir())
	jars, err := Resolve(context.Background(), "slf4j-simple-1.7.36", "org.slf4j:slf4j-simple:1.7.36")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, j := range jars {
		names = append(names, filepath.Base(j))
	}
	got := strings.Join(names, " ")
	if got != "slf4j-api-1.7.36.jar slf4j-simple-1.7.36.jar" {
		t.Fatalf("jars = %s, want slf4j-simple and its dependency slf4j-api", got)
	}
}

// TestCheckCacheDir checks that a cache path under a file is refused and
// that a missing directory (created later) or an existing one is not.
func TestCheckCacheDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, cache string
		ok          bool
	}{
		{"existing directory", dir, true},
		{"missing directory", filepath.Join(dir, "a", "b"), true},
		{"a file", file, false},
		{"under a file", filepath.Join(file, "sub"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(CacheEnv, tt.cache)
			err := CheckCacheDir()
			if (err == nil) != tt.ok {
				t.Errorf("CheckCacheDir() = %v, want ok %v", err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "is not a directory") {
				t.Errorf("message %q lacks the reason", err)
			}
		})
	}
}
