//go:build unix

package report

import (
	"bytes"
	"context"
	"html"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/results"
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
// shot and returns chromium's log (stderr).
func screenshot(t *testing.T, page, shot string) string {
	t.Helper()
	_, log := chromium(t, "--screenshot="+shot, "file://"+page)
	return log
}

// chromium runs headless chromium at 1280×4800 with args and returns its
// stdout and log (stderr). Chromium and its helpers run in their own
// process group, killed when the run ends or the minute is up.
func chromium(t *testing.T, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, chromiumPath, append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0",
		"--window-size=1280,4800"}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	err := cmd.Run()
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // helpers outliving the browser
	}
	if err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// layoutScript, injected into a copy of the page, has the browser check
// the layout once the page has loaded, and writes the outcome into
// body's data-layout attribute: "ok" or "problems:" and one per line.
// Every text of every chart must lie inside its SVG (nothing clipped),
// and no table, nor the page, may need a horizontal scroll at 1280 px.
// It also counts the findings picture's rows as drawn, into
// data-forest-rows: the rows with a box of their own inside the picture,
// rows at the same height counted once (-1: no picture).
const layoutScript = `<script>
window.addEventListener("load", function () {
  var probs = [], r = Math.round;
  document.querySelectorAll("svg.chart").forEach(function (svg) {
    var b = svg.getBoundingClientRect();
    svg.querySelectorAll("text").forEach(function (t) {
      var e = t.getBoundingClientRect();
      if (e.left < b.left - 0.5 || e.right > b.right + 0.5 || e.top < b.top - 0.5 || e.bottom > b.bottom + 0.5) {
        probs.push(svg.id + ": text \"" + t.textContent.trim().slice(0, 70) + "\" spans x " + r(e.left - b.left) + ".." +
          r(e.right - b.left) + ", y " + r(e.top - b.top) + ".." + r(e.bottom - b.top) + " of a " + r(b.width) + "×" + r(b.height) + " chart");
      }
    });
  });
  document.querySelectorAll("table").forEach(function (t, i) {
    var c = t.parentElement, cs = getComputedStyle(c);
    var room = c.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
    var name = "table " + (i + 1) + " (" + t.className + ")";
    if (t.scrollWidth > t.clientWidth + 1) {
      probs.push(name + ": scrollWidth " + t.scrollWidth + " > clientWidth " + t.clientWidth + ": it scrolls sideways");
    }
    if (t.scrollWidth > room + 1 || t.scrollWidth > 1280) {
      probs.push(name + ": " + t.scrollWidth + " px wide, its container has " + r(room) + " px");
    }
  });
  var d = document.documentElement;
  if (d.scrollWidth > window.innerWidth || d.scrollWidth > 1280) {
    probs.push("page: " + d.scrollWidth + " px wide in a " + window.innerWidth + " px window");
  }
  document.body.setAttribute("data-layout", probs.length ? "problems:\n" + probs.join("\n") : "ok");
  var forest = document.getElementById("findings-forest"), tops = {};
  if (forest) {
    var fb = forest.getBoundingClientRect();
    forest.querySelectorAll("g.forest-row").forEach(function (g) {
      var e = g.getBoundingClientRect();
      if (e.width > 0 && e.height > 0 && e.top >= fb.top - 0.5 && e.bottom <= fb.bottom + 0.5) {
        tops[r(e.top)] = true;
      }
    });
  }
  document.body.setAttribute("data-forest-rows", forest ? Object.keys(tops).length : -1);
});
</script>
`

// layoutProblems loads a copy of page, with layoutScript injected, in
// headless chromium at 1280 px and returns the problems the page found
// and the findings picture's rows as drawn (-1: no picture); it fails the
// test when the check did not report at all.
func layoutProblems(t *testing.T, page string) ([]string, int) {
	t.Helper()
	b, err := os.ReadFile(page)
	if err != nil {
		t.Fatal(err)
	}
	probe := strings.TrimSuffix(page, ".html") + "-layout.html"
	b = bytes.Replace(b, []byte("</body>"), []byte(layoutScript+"</body>"), 1)
	if err := os.WriteFile(probe, b, 0o644); err != nil {
		t.Fatal(err)
	}
	dom, log := chromium(t, "--run-all-compositor-stages-before-draw", "--virtual-time-budget=5000",
		"--dump-dom", "file://"+probe)
	m := regexp.MustCompile(`<body[^>]*\sdata-layout="([^"]*)"`).FindStringSubmatch(dom)
	if m == nil {
		t.Fatalf("the layout check did not report (no data-layout on body)\n%s", log)
	}
	rows := regexp.MustCompile(`<body[^>]*\sdata-forest-rows="(-?\d+)"`).FindStringSubmatch(dom)
	if rows == nil {
		t.Fatalf("the layout check did not count the findings picture's rows\n%s", log)
	}
	n, err := strconv.Atoi(rows[1])
	if err != nil {
		t.Fatal(err)
	}
	if v := html.UnescapeString(m[1]); v != "ok" {
		return strings.Split(strings.TrimPrefix(v, "problems:\n"), "\n"), n
	}
	return nil, n
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
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 4800 {
		t.Errorf("screenshot is %v, want 1280×4800", b)
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
	// 150 sampled pixels: one line chart of thin lines and markers (the
	// capacity page's only chart) has about 200; an empty page has none.
	if len(colours) < 50 || blue < 150 {
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
			if err := HTML(&b, HTMLInput{ExperimentYAML: "name: " + tt.name + "\n", Env: testEnv, Plan: tt.plan, Records: tt.recs(t)}); err != nil {
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
			p, rows := layoutProblems(t, page)
			if len(p) > 0 {
				t.Errorf("layout at 1280 px:\n%s", strings.Join(p, "\n"))
			}
			if want := forestRowsWant(tt.plan); rows != want {
				t.Errorf("the findings picture draws %d rows, want %d (one per finding; -1: no picture)", rows, want)
			}
		})
	}
	// The row count can fail: a picture with a row dropped draws one row
	// fewer than its findings.
	t.Run("row count catches a dropped row", func(t *testing.T) {
		var b bytes.Buffer
		if err := HTML(&b, HTMLInput{Env: testEnv, Plan: &forestPlan, Records: idempotenceRun()}); err != nil {
			t.Fatal(err)
		}
		row := regexp.MustCompile(`(?s)<g class="forest-row [a-z]+">.*?</g>\n`)
		dropped := row.ReplaceAllStringFunc(b.String(), func(g string) string {
			if strings.Contains(g, "<title>2. ") {
				return ""
			}
			return g
		})
		if dropped == b.String() {
			t.Fatal("no row 2 to drop")
		}
		page := filepath.Join(t.TempDir(), "dropped.html")
		if err := os.WriteFile(page, []byte(dropped), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, rows := layoutProblems(t, page); rows != len(forestPlan.Comparisons)-1 {
			t.Errorf("a picture with a row dropped draws %d rows, want %d", rows, len(forestPlan.Comparisons)-1)
		}
	})
	// The layout check can fail: clipped chart text and a table wider
	// than the window are caught.
	t.Run("layout check catches problems", func(t *testing.T) {
		page := filepath.Join(t.TempDir(), "wide.html")
		wide := `<!DOCTYPE html><html><body><svg class="chart" id="c" viewBox="0 0 100 50" width="100">` +
			`<text x="0" y="20" text-anchor="middle">clipped title</text></svg>` +
			`<table style="display:block;overflow-x:auto"><tr><td style="white-space:nowrap">` + strings.Repeat("wide ", 400) +
			`</td></tr></table></body></html>`
		if err := os.WriteFile(page, []byte(wide), 0o644); err != nil {
			t.Fatal(err)
		}
		p, _ := layoutProblems(t, page)
		if len(p) != 3 || !strings.HasPrefix(p[0], `c: text "clipped title"`) || !strings.Contains(p[1], "scrolls sideways") {
			t.Errorf("layout problems of a broken page = %q, want the clipped text and the table", p)
		}
	})
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

// forestRowsWant is how many rows the findings picture of a run with
// plan draws: one per planned comparison; -1 (no picture) without any.
func forestRowsWant(plan *results.Plan) int {
	if plan == nil || len(plan.Comparisons) == 0 {
		return -1
	}
	return len(plan.Comparisons)
}
