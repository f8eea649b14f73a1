//go:build unix

package report

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// chromiumPath is Debian's chromium, installed by scripts/install-test-deps.sh.
const chromiumPath = "/usr/bin/chromium"

// artifactDir is where the browser test leaves its pages and screenshots:
// $PRODLAB_ARTIFACTS, or testdata/out (not committed).
func artifactDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PRODLAB_ARTIFACTS")
	if dir == "" {
		dir = filepath.Join("testdata", "out")
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// screenshot renders page (a local HTML file) with headless chromium into
// shot and returns chromium's log (stderr). Chromium and its helpers run in
// their own process group, killed when the test ends or the minute is up.
func screenshot(t *testing.T, page, shot string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromiumPath,
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir="+t.TempDir(), "--enable-logging=stderr", "--v=0",
		"--screenshot="+shot, "--window-size=1280,2400", "file://"+page)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // helpers outliving the browser
	}
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return stderr.String()
}

// consoleLines returns chromium's logged console messages. Chromium logs
// every console message as INFO:CONSOLE, whatever its level, so the
// level cannot be told apart; report.html has no script at all, so any
// console message (an error loading or parsing the page) is a failure.
func consoleLines(log string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, ":CONSOLE") {
			out = append(out, l)
		}
	}
	return out
}

// checkPNG asserts shot is a real screenshot: a PNG of the window's size
// with many colours, among them the charts' first series blue (#0072B2).
func checkPNG(t *testing.T, shot string) {
	t.Helper()
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 2400 {
		t.Errorf("screenshot is %v, want 1280×2400", b)
	}
	colours, blue := map[[3]uint32]bool{}, 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl := rgb(img, x, y)
			colours[[3]uint32{r, g, bl}] = true
			if r == 0x00 && g == 0x72 && bl == 0xB2 {
				blue++
			}
		}
	}
	if len(colours) < 50 || blue < 500 {
		t.Errorf("screenshot looks empty: %d colours, %d chart-blue pixels", len(colours), blue)
	}
}

// rgb returns the 8-bit colour at x, y.
func rgb(img image.Image, x, y int) (uint32, uint32, uint32) {
	r, g, b, _ := img.At(x, y).RGBA()
	return r >> 8, g >> 8, b >> 8
}

func TestBrowserRender(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Skipf("%s not found: run scripts/install-test-deps.sh to install Debian's chromium", chromiumPath)
	}
	dir := artifactDir(t)
	for _, tt := range htmlCases {
		t.Run(tt.name, func(t *testing.T) {
			page := filepath.Join(dir, "report-"+tt.name+".html")
			shot := filepath.Join(dir, "report-"+tt.name+".png")
			_ = os.Remove(shot)
			var b bytes.Buffer
			if err := HTML(&b, HTMLInput{ExperimentYAML: "name: " + tt.name + "\n", Env: testEnv, Records: tt.recs(t)}); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			log := screenshot(t, page, shot)
			if c := consoleLines(log); len(c) > 0 {
				t.Errorf("console messages:\n%s", strings.Join(c, "\n"))
			}
			checkPNG(t, shot)
			t.Logf("screenshot: %s", shot)
		})
	}
	// The console check can fail: a page that logs an error is caught.
	t.Run("console check catches errors", func(t *testing.T) {
		page := filepath.Join(t.TempDir(), "broken.html")
		if err := os.WriteFile(page, []byte(`<!DOCTYPE html><html><body><script>console.error("boom"); nosuch();</script></body></html>`), 0o644); err != nil {
			t.Fatal(err)
		}
		log := screenshot(t, page, filepath.Join(t.TempDir(), "broken.png"))
		if c := consoleLines(log); len(c) != 2 {
			t.Errorf("console lines of a broken page = %q, want the error and the exception", c)
		}
	})
}
