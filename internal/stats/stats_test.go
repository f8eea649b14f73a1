package stats

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/HdrHistogram/hdrhistogram-go"

	"github.com/prodlab/prodlab/internal/histtest"
)

func TestEncodeRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		h    *hdrhistogram.Histogram
	}{
		// An empty histogram still carries its geometry.
		{"empty", histtest.New(t)},
		// A spread from 1 µs to minutes.
		{"spread", histtest.New(t, append(histtest.UpTo(3000), 60_000_000, 599_000_000)...)},
		// A different geometry survives the trip.
		{"other geometry", func() *hdrhistogram.Histogram {
			h := hdrhistogram.New(10, 3_600_000_000, 2)
			_ = h.RecordValues(12345, 7)
			return h
		}()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := EncodeHistogram(tt.h)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(s, "HISTF") {
				t.Errorf("encoding %.12q… lacks the V2 compressed cookie", s)
			}
			got, err := DecodeHistogram(s)
			if err != nil {
				t.Fatal(err)
			}
			if !got.Equals(tt.h) {
				t.Errorf("decoded histogram differs: %+v, want %+v", PercentilesMs(got), PercentilesMs(tt.h))
			}
		})
	}
}

func TestEncodeErrors(t *testing.T) {
	if _, err := EncodeHistogram(nil); err == nil {
		t.Error("EncodeHistogram(nil) succeeded")
	}
	for _, s := range []string{
		"",                 // nothing recorded
		"not base64!",      // not an encoding at all
		"HISTFAAAAIF4nJNp", // truncated
		"AAAAAAAAAAAA",     // wrong cookie
	} {
		if _, err := DecodeHistogram(s); err == nil || !strings.Contains(err.Error(), "decode histogram") {
			t.Errorf("DecodeHistogram(%q) error = %v, want a decode error", s, err)
		}
	}
}

// TestJavaVector decodes a histogram that Java's HdrHistogram 2.2.2 encoded
// with encodeIntoCompressedByteBuffer, recorded once in testdata/java-v2.txt
// by testdata/java/JavaVector.java (see its header), and checks the figures
// against those Java computed.
func TestJavaVector(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "java-v2.txt"))
	if err != nil {
		t.Fatal(err)
	}
	checkJavaOutput(t, string(b))
}

// TestJavaLive regenerates the vector with a real JVM and the HdrHistogram
// jar the worker build uses, so the check follows the Java library: the
// jar of java/worker/pom.xml's hdrhistogram.version in the local Maven
// repository (PRODLAB_HDRHISTOGRAM_JAR overrides it). It skips, naming the
// path it looked at, when there is no jar (the worker was never built).
func TestJavaLive(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a JVM")
	}
	jar, err := hdrHistogramJar()
	if err != nil {
		t.Skipf("HdrHistogram jar: %v (build java/worker with mvn, or set PRODLAB_HDRHISTOGRAM_JAR)", err)
	}
	java, err := exec.LookPath("java")
	if err != nil {
		t.Skip("java not found")
	}
	out, err := exec.Command(java, "-cp", jar, filepath.Join("testdata", "java", "JavaVector.java")).Output()
	if err != nil {
		t.Fatalf("run JavaVector with %s: %v", jar, err)
	}
	checkJavaOutput(t, string(out))
}

// hdrHistogramJar returns the HdrHistogram jar the worker build fetched
// into ~/.m2/repository, at the version java/worker/pom.xml names, or
// $PRODLAB_HDRHISTOGRAM_JAR when set; the error names the path looked at.
func hdrHistogramJar() (string, error) {
	jar := os.Getenv("PRODLAB_HDRHISTOGRAM_JAR")
	if jar == "" {
		pom, err := os.ReadFile(filepath.Join("..", "..", "java", "worker", "pom.xml"))
		if err != nil {
			return "", err
		}
		m := regexp.MustCompile(`<hdrhistogram\.version>\s*([^<\s]+)\s*</hdrhistogram\.version>`).FindSubmatch(pom)
		if m == nil {
			return "", errors.New("java/worker/pom.xml names no hdrhistogram.version")
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		v := string(m[1])
		jar = filepath.Join(home, ".m2", "repository", "org", "hdrhistogram", "HdrHistogram", v, "HdrHistogram-"+v+".jar")
	}
	if _, err := os.Stat(jar); err != nil {
		return "", fmt.Errorf("not found at %s", jar)
	}
	return jar, nil
}

// TestHDRHistogramJar: the jar is looked for in the local Maven repository
// at the worker's version, and a missing one is an error naming the path.
func TestHDRHistogramJar(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("PRODLAB_HDRHISTOGRAM_JAR", "")
	pom, err := os.ReadFile(filepath.Join("..", "..", "java", "worker", "pom.xml"))
	if err != nil {
		t.Fatal(err)
	}
	v := string(regexp.MustCompile(`<hdrhistogram\.version>([^<]+)<`).FindSubmatch(pom)[1])
	want := filepath.Join(home, ".m2", "repository", "org", "hdrhistogram", "HdrHistogram", v, "HdrHistogram-"+v+".jar")
	tests := []struct {
		name    string
		present bool
		err     string
	}{
		{"absent", false, "not found at " + want},
		{"present", true, ""},
	}
	for _, tt := range tests {
		if tt.present {
			if err := os.MkdirAll(filepath.Dir(want), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(want, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := hdrHistogramJar()
		if tt.err != "" && (err == nil || err.Error() != tt.err) || tt.err == "" && (err != nil || got != want) {
			t.Errorf("%s: hdrHistogramJar() = %q, %v; want %q, %q", tt.name, got, err, want, tt.err)
		}
	}
}

// checkJavaOutput decodes JavaVector's output and compares Go's figures
// with Java's.
func checkJavaOutput(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 2 {
		t.Fatalf("want 2 lines from JavaVector, got %d", len(lines))
	}
	h, err := DecodeHistogram(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for _, f := range strings.Fields(lines[1]) {
		n, err := strconv.ParseInt(f, 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, n)
	}
	got := []int64{
		h.TotalCount(),
		h.ValueAtQuantile(50),
		h.ValueAtQuantile(95),
		h.ValueAtQuantile(99),
		h.ValueAtQuantile(99.9),
		h.Max(),
		h.Min(),
	}
	names := []string{"count", "p50", "p95", "p99", "p99.9", "max", "min"}
	if len(want) != len(got) {
		t.Fatalf("Java figures %v: want %d numbers", want, len(got))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Errorf("%s: Go %d, Java %d", names[i], got[i], want[i])
		}
	}
	// And it re-encodes and merges like a Go histogram.
	if _, err := EncodeHistogram(Merge(h, histtest.New(t, 1))); err != nil {
		t.Error(err)
	}
}

func TestMerge(t *testing.T) {
	wide := hdrhistogram.New(1, 3_600_000_000, 2) // an hour, 2 digits
	_ = wide.RecordValue(3_000_000_000)
	tests := []struct {
		name      string
		in        []*hdrhistogram.Histogram
		count     int64
		max       int64 // µs
		precision int64
	}{
		// Nothing to merge: an empty histogram of the default geometry.
		{"none", nil, 0, 0, defaultDigits},
		// nil entries are skipped.
		{"nils", []*hdrhistogram.Histogram{nil, histtest.New(t, 5), nil}, 1, 5, defaultDigits},
		// Counts add up.
		{"two", []*hdrhistogram.Histogram{histtest.New(t, histtest.UpTo(100)...), histtest.New(t, histtest.UpTo(50)...)}, 150, 100, defaultDigits},
		// A value beyond the first histogram's range is kept, and the finer
		// precision of the first is kept too.
		{"wider second", []*hdrhistogram.Histogram{histtest.New(t, 7), wide}, 2, 3_000_000_000, defaultDigits},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Merge(tt.in...)
			if got.TotalCount() != tt.count {
				t.Errorf("count = %d, want %d", got.TotalCount(), tt.count)
			}
			// Within 1%: a value from a 2-digit histogram is only known to that precision.
			if d := got.Max() - tt.max; d*100 > tt.max || -d*100 > tt.max {
				t.Errorf("max = %d, want %d ± 1%%", got.Max(), tt.max)
			}
			if got.SignificantFigures() != tt.precision {
				t.Errorf("significant figures = %d, want %d", got.SignificantFigures(), tt.precision)
			}
		})
	}
	// The inputs are not modified.
	a := histtest.New(t, 1, 2, 3)
	Merge(a, histtest.New(t, 4))
	if a.TotalCount() != 3 {
		t.Errorf("Merge modified its input: count %d", a.TotalCount())
	}
}

func TestPercentilesMs(t *testing.T) {
	tests := []struct {
		name string
		h    *hdrhistogram.Histogram
		want Percentiles
	}{
		// No histogram (a failed trial) gives zeros, not NaN.
		{"nil", nil, Percentiles{}},
		// An empty histogram likewise.
		{"empty", histtest.New(t), Percentiles{}},
		// 1..1000 µs: exact below 2048 at 3 digits, so the figures are exact.
		{"uniform", histtest.New(t, histtest.UpTo(1000)...), Percentiles{P50: 0.5, P95: 0.95, P99: 0.99, P999: 0.999, Max: 1, Mean: 0.5005}},
		// One value: every percentile is it.
		{"single", histtest.New(t, 1500), Percentiles{P50: 1.5, P95: 1.5, P99: 1.5, P999: 1.5, Max: 1.5, Mean: 1.5}},
		// Large values are reported as the top of their bucket (within 0.1%).
		{"seconds", histtest.New(t, 2_000_000), Percentiles{P50: 2000.895, P95: 2000.895, P99: 2000.895, P999: 2000.895, Max: 2000.895, Mean: 2000.384}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := PercentilesMs(tt.h); got != tt.want {
				t.Errorf("PercentilesMs = %+v, want %+v", got, tt.want)
			}
		})
	}
}
