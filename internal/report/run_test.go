package report

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/golden"
	"github.com/prodlab/prodlab/internal/results"
)

// cpuSteady is three trials of two schema-2 scenarios with CPU figures;
// two trials of the first did not reach a steady state, and the second
// scenario ran against an external cluster (no broker CPU).
func cpuSteady() []results.Record {
	var recs []results.Record
	for i := 0; i < 3; i++ {
		a := rec(5, "lz4", i, 1+0.01*float64(i))
		a.CPU = &results.CPU{ClientS: 1.2, ClientMsPerMB: 12.5 + float64(i), BrokersS: 2.4, BrokersMsPerMB: 25 + float64(i)}
		a.Steady = &results.Steady{OK: true, Points: 30}
		if i > 0 {
			a.Steady = &results.Steady{OK: false, Points: 30, Drift: 0.12, Reason: "throughput drifts +12 % [+8 %, +16 %] over the window"}
		}
		b := rec(5, "zstd", i, 0.8)
		b.CPU = &results.CPU{ClientS: 1.5, ClientMsPerMB: 18 - float64(i)}
		b.Steady = &results.Steady{OK: true, Points: 30}
		recs = append(recs, a, b)
	}
	return recs
}

func TestRenderCPUSteady(t *testing.T) {
	// The CPU columns appear, the unsteady scenario's throughput is
	// marked and explained, in every text format.
	for _, f := range []string{FormatTable, FormatMarkdown, FormatCSV} {
		t.Run(f, func(t *testing.T) {
			var b bytes.Buffer
			if err := Render(&b, f, cpuSteady()); err != nil {
				t.Fatal(err)
			}
			golden.Check(t, "render-"+f+"-cpu-steady.golden", b.Bytes())
		})
	}
	var b bytes.Buffer
	if err := HTML(&b, HTMLInput{Env: testEnv, Records: cpuSteady()}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<th>CLIENT CPU ms/MB</th>", "<th>BROKER CPU ms/MB</th>",
		"! linger.ms=5 compression.type=lz4: not steady in 2 of 3 trials: throughput drifts"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

func TestHTMLAuditColumns(t *testing.T) {
	// The idempotence study's page shows its own audit and the proxies'
	// figures, as the terminal table does.
	var b bytes.Buffer
	if err := HTML(&b, HTMLInput{Env: testEnv, Records: auditNetwork()}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, h := range []string{"IN-FLIGHT", "RTT ms", "MODEL MB/S", "LOST", "DUP", "REORD", "PHANTOM"} {
		if !strings.Contains(page, "<th>"+h+"</th>") {
			t.Errorf("page lacks column %s", h)
		}
	}
	// The totals: 8,100 + 7,920 duplicates.
	if !strings.Contains(page, "<td>16,020</td>") {
		t.Error("page lacks the duplicates total")
	}
	// Without audit or proxies, no such columns.
	b.Reset()
	if err := HTML(&b, HTMLInput{Env: testEnv, Records: []results.Record{rec(0, "none", 0, 1)}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "<th>LOST</th>") {
		t.Error("page without an audit has a LOST column")
	}
}

// noJava puts a fake java first on PATH that leaves a mark when run, and
// returns the mark's path.
func noJava(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	mark := filepath.Join(bin, "java-ran")
	script := "#!/bin/sh\ntouch " + mark + "\necho 'openjdk version \"99\"' >&2\n"
	if err := os.WriteFile(filepath.Join(bin, "java"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	return mark
}

func TestWriteRunOldRunDir(t *testing.T) {
	// A run directory from before environment.json: the page names the
	// records' versions and an unknown machine, and nothing is probed.
	mark := noJava(t)
	dir := t.TempDir()
	recs := fixture(t)
	var out bytes.Buffer
	if err := WriteRun(dir, recs, &out, FormatTable); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Error("WriteRun ran java -version for an old run")
	}
	page, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<tr><th>Kafka</th><td>4.3.0</td></tr>", "<tr><th>Clients</th><td>franz-go v1.22.2</td></tr>",
		"<tr><th>Machine</th><td>unknown: this run saved no environment.json"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	for _, bad := range []string{"<th>OS</th>", "<th>Java</th>", "<th>CPU</th>"} {
		if strings.Contains(string(page), bad) {
			t.Errorf("report.html of an old run describes a machine: %s", bad)
		}
	}
	// The table went to out and to table.txt alike; no Findings without a plan.
	table, err := os.ReadFile(filepath.Join(dir, results.TableFile))
	if err != nil {
		t.Fatal(err)
	}
	if string(table) != out.String() || !strings.HasPrefix(out.String(), "SCENARIO") || strings.Contains(out.String(), "Findings") {
		t.Errorf("table.txt and output differ or are wrong:\n%s\n---\n%s", table, out.String())
	}
	// Written whole: only the two files, no temporary leftovers.
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "findings.json report.html table.txt" {
		t.Errorf("run dir holds %v", names)
	}
	// Without a plan, findings.json says there are no Findings.
	if got, _ := os.ReadFile(filepath.Join(dir, results.FindingsFile)); string(got) != "{\n  \"findings\": []\n}\n" {
		t.Errorf("findings.json without a plan = %q", got)
	}
}

func TestWriteRunSaved(t *testing.T) {
	// A run that saved its environment and plan: the page shows both, the
	// chosen format goes to out, and the table (with Findings) to table.txt.
	noJava(t)
	dir := t.TempDir()
	if err := results.WriteEnvironment(dir, *testEnv); err != nil {
		t.Fatal(err)
	}
	if err := results.WritePlan(dir, idempotencePlan); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, results.ExperimentFile), []byte("name: idempotence\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := WriteRun(dir, idempotenceRun(), &out, FormatMarkdown); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "| scenario |") || !strings.Contains(out.String(), "### Findings") {
		t.Errorf("markdown output wrong:\n%s", out.String())
	}
	table, _ := os.ReadFile(filepath.Join(dir, results.TableFile))
	if !strings.HasPrefix(string(table), "SCENARIO") || !strings.Contains(string(table), "\nFindings (") {
		t.Errorf("table.txt wrong:\n%s", table)
	}
	page, _ := os.ReadFile(filepath.Join(dir, HTMLFile))
	for _, want := range []string{"<tr><th>CPU</th><td>AMD EPYC, 2 logical CPUs</td></tr>", "<h2>Findings</h2>", "<pre>name: idempotence\n</pre>"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
	// RenderRun renders the same output without writing files.
	var again bytes.Buffer
	if err := RenderRun(dir, idempotenceRun(), &again, FormatMarkdown); err != nil || again.String() != out.String() {
		t.Errorf("RenderRun = %v, output differs: %v", err, again.String() != out.String())
	}
	// An unknown format writes nothing.
	if err := WriteRun(t.TempDir(), nil, &out, "yaml"); err == nil || !regexp.MustCompile(`unknown format "yaml"`).MatchString(err.Error()) {
		t.Errorf("WriteRun(yaml) = %v", err)
	}
}

// TestTransactionAuditColumns: a transactional producer's audit adds the
// aborted records and those a read_committed consumer saw, summed over
// trials; a plain audit has neither column.
func TestTransactionAuditColumns(t *testing.T) {
	recs := auditNetwork()
	if len(recs) == 0 {
		t.Fatal("no records")
	}
	plain := &strings.Builder{}
	if err := Render(plain, "table", recs); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plain.String(), "ABORTED") {
		t.Error("a plain audit shows transaction columns")
	}
	for i := range recs {
		if recs[i].Audit != nil {
			a := *recs[i].Audit
			a.Transactions = &results.AuditTxn{Isolation: "read_committed", Aborted: 1000, AbortedVisible: 3, AbortedInLog: 1000}
			recs[i].Audit = &a
		}
	}
	var b strings.Builder
	if err := Render(&b, "table", recs); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "ABORTED VISIBLE") {
		t.Fatalf("table lacks the transaction columns:\n%s", out)
	}
	// The totals over the scenario's two audited trials, in CSV's columns.
	var c strings.Builder
	if err := Render(&c, "csv", recs); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(c.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	ai, vi := slices.Index(rows[0], "aborted"), slices.Index(rows[0], "aborted_visible")
	if ai < 0 || vi < 0 {
		t.Fatalf("CSV lacks aborted, aborted_visible: %v", rows[0])
	}
	found := false
	for _, f := range rows[1:] {
		if f[ai] == "2000" && f[vi] == "6" {
			found = true
		}
	}
	if !found {
		t.Errorf("no scenario with 2000 aborted and 6 visible (1,000 and 3 in each of two trials):\n%s", c.String())
	}
}
