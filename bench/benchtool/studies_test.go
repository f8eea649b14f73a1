package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/report"
	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
)

// TestStudiesDoc: docs/studies.md is what the kept runs under
// bench/studies give (make studies-doc writes it), and it names every
// built-in experiment.
func TestStudiesDoc(t *testing.T) {
	var got bytes.Buffer
	if err := studies(filepath.Join("..", "studies"), &got); err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join("..", "..", "docs", "studies.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("docs/studies.md differs from what bench/studies/ gives: run make studies-doc")
	}
	bs, err := expfile.Builtins()
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bs {
		if !bytes.Contains(want, []byte("\n## "+b.Name+"\n")) {
			t.Errorf("docs/studies.md has no section for built-in %s", b.Name)
		}
	}
}

// TestStudyStatus: a study's answers read decided or open in words, open
// ones with the rounds their verdict needs.
func TestStudyStatus(t *testing.T) {
	tests := []struct {
		kind string
		more int
		want string
	}{
		{stats.KindFaster, 0, "decided"},
		{stats.KindLower, 0, "decided"},
		{stats.KindEquivalent, 0, "decided"},
		{stats.KindInconclusive, 444, "open: about 444 more rounds"},
		{stats.KindNotTested, 0, "open: not tested"},
	}
	for _, tt := range tests {
		f := report.Finding{Kind: tt.kind, Verdict: stats.Verdict{Kind: tt.kind, MoreRounds: tt.more}}
		if got := status(f); got != tt.want {
			t.Errorf("%s (%d more): %q, want %q", tt.kind, tt.more, got, tt.want)
		}
	}
	var b bytes.Buffer
	writeStudy(&b, keptStudy{Builtin: expfile.Builtin{Name: "x", Description: "d"}})
	if !strings.Contains(b.String(), "No kept run yet") {
		t.Errorf("a study without a kept run:\n%s", b.String())
	}
}

// TestAuditRows reads the audit columns of a results table, whose values
// hold two-byte runes ("±") and whose STATUS runs to the line's end, and
// refuses a table without them.
func TestAuditRows(t *testing.T) {
	const table = "SCENARIO   TRIALS  SENT   MSG/S      LOST  DUP  REORD  PHANTOM  STATUS\n" +
		"a=1        5       2,000  1,833 ± 4  36    0    142    0        ok\n" +
		"a=all      5       1,998  1,625 ± 6  0     2    0      0        1 of 5 trials VIOLATED: delivery violated\n" +
		"\n! a=1: not steady\n"
	got, err := auditRows(table)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		{"SCENARIO", "TRIALS", "SENT", "LOST", "DUP", "REORD", "PHANTOM", "STATUS"},
		{"a=1", "5", "2,000", "36", "0", "142", "0", "ok"},
		{"a=all", "5", "1,998", "0", "2", "0", "0", "1 of 5 trials VIOLATED: delivery violated"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// A transactional producer's audit adds its two columns before STATUS.
	const txn = "SCENARIO  TRIALS  SENT    LOST  DUP  REORD  PHANTOM  ABORTED  ABORTED VISIBLE  STATUS\n" +
		"c=java    1       20,000  0     0    0      0        2,500    0                ok\n"
	got, err = auditRows(txn)
	if err != nil {
		t.Fatal(err)
	}
	want = [][]string{
		{"SCENARIO", "TRIALS", "SENT", "LOST", "DUP", "REORD", "PHANTOM", "ABORTED", "ABORTED VISIBLE", "STATUS"},
		{"c=java", "1", "20,000", "0", "0", "0", "0", "2,500", "0", "ok"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("transactional: got  %q\nwant %q", got, want)
	}
	if _, err := auditRows("SCENARIO  TRIALS\nx  1\n"); err == nil || !strings.Contains(err.Error(), "no SENT column") {
		t.Errorf("a table without the audit columns: %v", err)
	}
}

// TestWriteAdvice: an advise study's section says the advisor's answer,
// whether the pick is recommended, the pick with its sustainable rate or
// its score, and each verdict, naming what it is against.
func TestWriteAdvice(t *testing.T) {
	for _, tc := range []struct {
		name string
		a    results.Advice
		want []string
	}{
		{"capacity objective", results.Advice{Answer: "use the pick", Recommend: true,
			Pick:     &results.AdvicePick{ScenarioID: "candidate=a", Sustainable: &results.Sustainable{RecordsPerS: 2500, Lo: 2400, Hi: 2600}},
			Verdicts: []results.AdviceVerdict{{Against: "current", ScenarioID: "candidate=current", Metric: "sustainable", Text: "faster by 9.0 %"}}},
			[]string{"Answer: use the pick (recommended: a verdict", "- Pick: `candidate=a`, sustainable 2500 msg/s [2400, 2600]", "- Against current (`candidate=current`), sustainable: faster by 9.0 %"}},
		{"rate objective, not recommended", results.Advice{Answer: "keep your settings",
			Pick: &results.AdvicePick{ScenarioID: "candidate=b", Score: &results.AdviceValue{Metric: "p99.intended", Mean: 12.5, Lo: 11, Hi: 14}}},
			[]string{"(not recommended: no verdict", "- Pick: `candidate=b`, p99.intended 12.5 [11, 14]"}},
		{"no pick", results.Advice{Answer: "cannot tell yet"}, []string{"Answer: cannot tell yet (not recommended"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			writeAdvice(&b, tc.a)
			for _, w := range tc.want {
				if !strings.Contains(b.String(), w) {
					t.Errorf("section lacks %q:\n%s", w, b.String())
				}
			}
			if tc.a.Pick == nil && strings.Contains(b.String(), "Pick:") {
				t.Errorf("a pick shown without one:\n%s", b.String())
			}
		})
	}
}
