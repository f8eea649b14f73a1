package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// studyRecordFile is what bench/studies/keep.sh writes beside a kept run's
// small files: how the run was made and how long it took.
const studyRecordFile = "record.json"

// studyRecord is record.json.
type studyRecord struct {
	// Command is the command that made the run, as typed.
	Command string `json:"command"`
	// WallS is the run's wall time in seconds (time prodlab run …).
	WallS float64 `json:"wall_s"`
	// Note is what the record's reader must know (a caveat), or "".
	Note string `json:"note,omitempty"`
}

// keptStudy is one built-in experiment and its kept record, if any.
type keptStudy struct {
	expfile.Builtin
	published []string // the compare: entries' published figures
	kept      bool
	rec       studyRecord
	env       results.Environment
	findings  []report.Finding
	// audit is each scenario's delivery audit, from the kept table.txt,
	// for a study that declares no comparisons: its answer is the audit.
	audit [][]string
	// advice is an advise study's answer (its kept advice.json): the
	// advisor plans its own comparisons, so its findings are empty.
	advice *results.Advice
}

// auditColumns are the results table's columns a study without
// comparisons is answered by, in the order the page shows them.
var auditColumns = []string{"SCENARIO", "TRIALS", "SENT", "LOST", "DUP", "REORD", "PHANTOM", "STATUS"}

// txnAuditColumns are shown too, before STATUS, when the table has them
// (a transactional producer's audit).
var txnAuditColumns = []string{"ABORTED", "ABORTED VISIBLE"}

// studies writes docs/studies.md from the built-in experiments and the runs
// kept under dir (bench/studies/NAME/): per study, its question, the
// published figures, prodlab's answers with their intervals, decided or
// open, and the record's command, time, commit, date and machine.
func studies(dir string, w io.Writer) error {
	bs, err := expfile.Builtins()
	if err != nil {
		return err
	}
	var all []keptStudy
	for _, b := range bs {
		k, err := readStudy(dir, b)
		if err != nil {
			return err
		}
		all = append(all, k)
	}
	writeStudies(w, all)
	return nil
}

// readStudy reads built-in b's published figures and its kept run under
// dir/NAME, when there is one.
func readStudy(dir string, b expfile.Builtin) (keptStudy, error) {
	k := keptStudy{Builtin: b}
	e, err := expfile.Load(b.Name, nil)
	if err != nil {
		return k, err
	}
	for _, c := range e.Compare {
		if c.Published != "" && !slices.Contains(k.published, c.Published) {
			k.published = append(k.published, c.Published)
		}
	}
	run := filepath.Join(dir, b.Name)
	data, err := os.ReadFile(filepath.Join(run, studyRecordFile))
	if errors.Is(err, fs.ErrNotExist) {
		return k, nil
	}
	if err != nil {
		return k, err
	}
	if err := json.Unmarshal(data, &k.rec); err != nil {
		return k, fmt.Errorf("%s: %w", filepath.Join(run, studyRecordFile), err)
	}
	env, ok, err := results.ReadEnvironment(run)
	if err != nil {
		return k, fmt.Errorf("%s: %w", run, err)
	}
	if !ok {
		return k, fmt.Errorf("%s: no environment.json beside %s", run, studyRecordFile)
	}
	k.env = env
	data, err = os.ReadFile(filepath.Join(run, results.FindingsFile))
	if err != nil {
		return k, err
	}
	var f struct {
		Findings []report.Finding `json:"findings"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return k, fmt.Errorf("%s: %w", filepath.Join(run, results.FindingsFile), err)
	}
	k.findings, k.kept = f.Findings, true
	adv, ok, err := results.ReadAdvice(run)
	if err != nil {
		return k, fmt.Errorf("%s: %w", run, err)
	}
	if ok {
		k.advice = &adv
		return k, nil
	}
	if len(k.findings) == 0 {
		table, err := os.ReadFile(filepath.Join(run, "table.txt"))
		if err != nil {
			return k, fmt.Errorf("%s declares no comparisons and has no table.txt to show its audit: %w", run, err)
		}
		if k.audit, err = auditRows(string(table)); err != nil {
			return k, fmt.Errorf("%s: %w", filepath.Join(run, "table.txt"), err)
		}
	}
	return k, nil
}

// auditRows reads auditColumns (and txnAuditColumns, where present; the
// first row returned names the columns) from the first block of a results table
// (report's fixed-width text: a header line, then a row per scenario, up
// to the first blank line), cutting each row at its header's column
// starts. The last column (STATUS) runs to the line's end.
func auditRows(table string) ([][]string, error) {
	lines := strings.Split(table, "\n")
	header := []rune(lines[0])
	starts := map[string]int{}
	var order []int
	for i := 0; i < len(header); {
		for i < len(header) && header[i] == ' ' {
			i++
		}
		j := strings.Index(string(header[i:]), "  ")
		if j < 0 {
			j = len(string(header[i:]))
		}
		n := len([]rune(string(header[i:])[:j])) // runes, not bytes: "±" is two bytes
		if name := strings.TrimSpace(string(header[i : i+n])); name != "" {
			starts[name] = i
			order = append(order, i)
		}
		i += n
	}
	cols := slices.Clone(auditColumns[:len(auditColumns)-1])
	for _, c := range txnAuditColumns {
		if _, ok := starts[c]; ok {
			cols = append(cols, c)
		}
	}
	cols = append(cols, "STATUS")
	rows := [][]string{cols}
	for _, l := range lines[1:] {
		if strings.TrimSpace(l) == "" {
			break
		}
		line := []rune(l)
		var row []string
		for _, c := range cols {
			st, ok := starts[c]
			if !ok {
				return nil, fmt.Errorf("no %s column in the table's header", c)
			}
			e := len(line)
			if i := slices.Index(order, st); c != "STATUS" && i+1 < len(order) && order[i+1] < e {
				e = order[i+1]
			}
			if st >= e {
				row = append(row, "")
				continue
			}
			row = append(row, strings.TrimSpace(string(line[st:e])))
		}
		rows = append(rows, row)
	}
	if len(rows) == 1 {
		return nil, errors.New("no scenario rows")
	}
	return rows, nil
}

// writeStudies renders the page.
func writeStudies(w io.Writer, all []keptStudy) {
	kept := 0
	for _, k := range all {
		if k.kept {
			kept++
		}
	}
	fmt.Fprintf(w, `# Built-in studies: what each asks and what it answered

Generated by `+"`make studies-doc`"+` from the built-in experiments and the
runs kept under bench/studies/NAME/ (their findings.json, plan.json,
environment.json and record.json; bench/studies/keep.sh keeps a run). Do
not edit by hand: a test fails when this page differs from what the records
give. Back to [contents](README.md).

%d of %d built-in experiments have a kept run; the others say how to make one.

`, kept, len(all))
	for _, k := range all {
		writeStudy(w, k)
	}
}

// writeStudy renders one study's section.
func writeStudy(w io.Writer, k keptStudy) {
	fmt.Fprintf(w, "## %s\n\n%s\n\n", k.Name, k.Description)
	for _, p := range k.published {
		fmt.Fprintf(w, "- Published: %s\n", p)
	}
	if len(k.published) > 0 {
		fmt.Fprintln(w)
	}
	if !k.kept {
		fmt.Fprintf(w, "No kept run yet: `prodlab run %s --out /tmp/%s` (`--dry-run` estimates its time), then `bench/studies/keep.sh /tmp/%s %s \"prodlab run %s\" SECONDS`.\n\n", k.Name, k.Name, k.Name, k.Name, k.Name)
		return
	}
	decided := 0
	for _, f := range k.findings {
		if stats.Decides(f.Kind) {
			decided++
		}
	}
	started := k.env.StartedAt
	if t, err := time.Parse(time.RFC3339, started); err == nil {
		started = t.UTC().Format("2006-01-02 15:04 UTC")
	}
	answered := fmt.Sprintf("%d of %d answers decided.", decided, len(k.findings))
	switch {
	case k.advice != nil:
		answered = "Its answer is advice (advice.json)."
	case len(k.findings) == 0:
		answered = "It declares no comparisons."
	}
	fmt.Fprintf(w, "Kept run ([bench/studies/%s/](../bench/studies/%s/)): `%s`, prodlab %s, started %s, %s on %d cores (%s, %.0f GiB), Kafka %s. %s\n\n",
		k.Name, k.Name, k.rec.Command, k.env.Prodlab, started, wall(k.rec.WallS), k.env.Cores, k.env.CPU, float64(k.env.MemoryBytes)/(1<<30), strings.Join(k.env.Kafka, ", "), answered)
	if k.rec.Note != "" {
		fmt.Fprintf(w, "%s\n\n", k.rec.Note)
	}
	if k.advice != nil {
		writeAdvice(w, *k.advice)
		return
	}
	if len(k.findings) == 0 && len(k.audit) > 0 {
		cols := k.audit[0]
		what := "LOST, DUP, REORD and PHANTOM summed over the trials"
		if len(cols) > len(auditColumns) {
			what += "; ABORTED: records of transactions the producer aborted, ABORTED VISIBLE: of those, read by a read_committed consumer"
		}
		fmt.Fprintf(w, "Its answer is each scenario's delivery audit (from the kept table.txt; %s):\n", what)
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| "+strings.Join(cols, " | ")+" |")
		fmt.Fprintln(w, "|---"+strings.Repeat("|---", len(cols)-1)+"|")
		for _, r := range k.audit[1:] {
			cells := make([]string, len(r))
			for i, c := range r {
				cells[i] = cell(c)
			}
			fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
		}
		fmt.Fprintln(w)
		return
	}
	fmt.Fprintln(w, "| # | question | prodlab's answer | status |")
	fmt.Fprintln(w, "|---:|---|---|---|")
	for i, f := range k.findings {
		fmt.Fprintf(w, "| %d | %s | %s | %s |\n", i+1, cell(f.Title), cell(f.Sentence), status(f))
	}
	fmt.Fprintln(w)
}

// writeAdvice renders an advise study's answer: the advisor's sentence,
// whether it recommends the pick, the pick with its sustainable rate (or
// score), and each verdict against the current settings and the defaults.
func writeAdvice(w io.Writer, a results.Advice) {
	rec := "not recommended: no verdict decided it better than the current settings"
	if a.Recommend {
		rec = "recommended: a verdict decided it better than the current settings"
	}
	fmt.Fprintf(w, "Answer: %s (%s).\n\n", a.Answer, rec)
	if p := a.Pick; p != nil {
		switch {
		case p.Sustainable != nil:
			s := p.Sustainable
			fmt.Fprintf(w, "- Pick: `%s`, sustainable %.0f msg/s [%.0f, %.0f]\n", p.ScenarioID, s.RecordsPerS, s.Lo, s.Hi)
		case p.Score != nil:
			fmt.Fprintf(w, "- Pick: `%s`, %s %.3g [%.3g, %.3g]\n", p.ScenarioID, p.Score.Metric, p.Score.Mean, p.Score.Lo, p.Score.Hi)
		default:
			fmt.Fprintf(w, "- Pick: `%s`\n", p.ScenarioID)
		}
	}
	for _, v := range a.Verdicts {
		fmt.Fprintf(w, "- Against %s (`%s`), %s: %s\n", v.Against, v.ScenarioID, v.Metric, v.Text)
	}
	fmt.Fprintln(w)
}

// status is a finding's state in words: decided, or open with the rounds
// its verdict says it needs.
func status(f report.Finding) string {
	switch {
	case stats.Decides(f.Kind):
		return "decided"
	case f.Verdict.MoreRounds > 0:
		return fmt.Sprintf("open: about %d more rounds", f.Verdict.MoreRounds)
	default:
		return "open: " + f.Kind
	}
}

// wall renders seconds as "11 min 14 s".
func wall(s float64) string {
	d := time.Duration(s * float64(time.Second)).Round(time.Second)
	return fmt.Sprintf("%d min %d s", int(d.Minutes()), int(d.Seconds())%60)
}

// cell makes text safe inside a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
