package prodlab_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// TestDocFigures: every figure README.md and docs/*.md quote comes from a
// record, so that a figure can no longer enter the docs from one unrecorded
// run, or stay there after its record changed. (docs/studies.md is left
// out: it is generated from the records.)
//
// The rule, kept simple:
//
//   - A figure is a number with a unit of measure: a percentage (with its
//     interval "+0.4 % [−1.6 %, +2.4 %]" if it has one, a range "24–26 %",
//     a half-width "±2.2 %"), an interval "7,735 [4,513, 15,498]", a rate
//     (records/s, msg/s, MB/s), a time in ms, µs, s, min, minutes or hours,
//     or a count of rounds ("40 rounds", "20–1,400 more rounds"). Fenced
//     code blocks are read too (quoted output is a figure like any other).
//   - A figure is sourced when the paragraph it stands in cites a record
//     and one cited record holds every number of the figure (its digits;
//     signs and thousands separators aside). A record is a section of
//     bench/RESULTS.md, cited as "§N"; a run kept under bench/studies/NAME
//     (all its files), cited as "bench/studies/NAME" or
//     "docs/studies.md#NAME"; or every kept run, cited as "docs/studies.md".
//     A table row, a list item and a code block also take the citations of
//     the paragraph that introduces them (the last paragraph before them).
//   - A figure that is a definition and not a measurement (a default, a
//     threshold, a margin, an SLO, a setting, a protocol constant) is
//     sourced when a phrase of testdata/figures-allow.txt covers it where
//     it stands: "p99 ≤ 50 ms" there allows that 50 ms, not every 50 ms.
//     A phrase that allows no figure any more is stale and fails too.
func TestDocFigures(t *testing.T) {
	recs, err := readRecords(filepath.Join("bench", "RESULTS.md"), filepath.Join("bench", "studies"))
	if err != nil {
		t.Fatal(err)
	}
	allow, err := readAllow(filepath.Join("testdata", "figures-allow.txt"))
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, page := range docPages(t) {
		if page == filepath.Join("docs", "studies.md") {
			continue
		}
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range figureProblems(page, string(data), recs, allow, used) {
			t.Error(p)
		}
	}
	for _, p := range allow {
		if !used[p] {
			t.Errorf("testdata/figures-allow.txt: %q allows no figure of README.md or docs/*.md: remove it", p)
		}
	}
}

// TestFigureProblems: the rule of TestDocFigures on small pages, one case
// for each way a figure is sourced or not.
func TestFigureProblems(t *testing.T) {
	recs := records{
		sections: map[string]string{
			"19": "acks=all adds +0.87 ms at p50; 25,002 msg/s",
			"20": "±2.0 % in 99 s",
		},
		studies: map[string]string{"clients": `"text": "slower by 28.6 % [-35.1 %, -21.5 %]"`},
	}
	allow := []string{"p99 ≤ 50 ms"}
	tests := []struct {
		name, page string
		want       []string
	}{
		{"cited and held", "acks=all costs +0.87 ms (bench/RESULTS.md §19).\n", nil},
		{"thousands separators aside", "It kept up at 25002 msg/s (§19).\n", nil},
		{"held by one of two", "±2.0 % in 99 s (§19, §20).\n", nil},
		{"cited, not held", "intro\n\nacks=all costs\n+0.9 ms (§19).\n",
			[]string{`x.md:4: figure "+0.9 ms" cites §19, which does not hold it`}},
		{"cited, not held by any", "+0.9 ms (§19, §20).\n",
			[]string{`x.md:1: figure "+0.9 ms" cites §19, §20, none of which holds it`}},
		{"a section that does not exist", "+0.87 ms (§39).\n",
			[]string{`x.md:1: figure "+0.87 ms" cites §39, which does not hold it`}},
		{"no citation", "`make run` takes 236 s.\n",
			[]string{`x.md:1: figure "236 s" has no record: cite a bench/RESULTS.md section or bench/studies run`}},
		{"citation in another paragraph", "Measured (§19).\n\nacks=all costs +0.87 ms.\n",
			[]string{`x.md:3: figure "+0.87 ms" has no record: cite a bench/RESULTS.md section or bench/studies run`}},
		{"interval: every bound", "slower by 28.6 % [-35.1 %, -21.6 %] (bench/studies/clients)\n",
			[]string{`x.md:1: figure "28.6 % [-35.1 %, -21.6 %]" cites bench/studies/clients, which does not hold it`}},
		{"interval from a kept run", "slower by 28.6 % [−35.1 %, −21.5 %] ([docs/studies.md](studies.md#clients))\n", nil},
		{"all kept runs", "slower by 28.6 % [−35.1 %, −21.5 %] (docs/studies.md)\n", nil},
		{"range: both ends", "between 2.0–2.2 % (§20)\n",
			[]string{`x.md:1: figure "2.0–2.2 %" cites §20, which does not hold it`}},
		{"no partial digits", "±12.0 % (§20)\n",
			[]string{`x.md:1: figure "±12.0 %" cites §20, which does not hold it`}},
		{"code block takes the intro's citation", "Its answer (§20):\n\n```\n±2.0 % in 99 s\n```\n", nil},
		{"code block alone", "Its answer:\n\n```\n±2.0 % in 99 s\n```\n",
			[]string{
				`x.md:4: figure "±2.0 %" has no record: cite a bench/RESULTS.md section or bench/studies run`,
				`x.md:4: figure "99 s" has no record: cite a bench/RESULTS.md section or bench/studies run`,
			}},
		{"table row takes the intro's citation", "Times (§20):\n\n| a | b |\n|---|---|\n| x | 99 s |\n", nil},
		{"allowed where the phrase covers it", "under p99 ≤ 50\nms\n", nil},
		{"allowed only there", "p99 was 50 ms\n",
			[]string{`x.md:1: figure "50 ms" has no record: cite a bench/RESULTS.md section or bench/studies run`}},
		{"rounds", "about 40 rounds\n",
			[]string{`x.md:1: figure "40 rounds" has no record: cite a bench/RESULTS.md section or bench/studies run`}},
		{"no unit, no figure", "Kafka 4.4.0 on 3 brokers, `linger.ms: [0, 20]`\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := figureProblems("x.md", tt.page, recs, allow, map[string]bool{})
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// records are the texts a figure may be sourced from.
type records struct {
	sections map[string]string // bench/RESULTS.md by section number
	studies  map[string]string // bench/studies/NAME's files, joined, by NAME
}

// resultsSection matches a section heading of bench/RESULTS.md.
var resultsSection = regexp.MustCompile(`(?m)^## (\d+)\. `)

// readRecords reads bench/RESULTS.md's sections and the runs kept under
// bench/studies.
func readRecords(results, studies string) (records, error) {
	recs := records{sections: map[string]string{}, studies: map[string]string{}}
	data, err := os.ReadFile(results)
	if err != nil {
		return recs, err
	}
	text := string(data)
	heads := resultsSection.FindAllStringSubmatchIndex(text, -1)
	for i, h := range heads {
		end := len(text)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		recs.sections[text[h[2]:h[3]]] = text[h[0]:end]
	}
	dirs, err := os.ReadDir(studies)
	if err != nil {
		return recs, err
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		files, err := filepath.Glob(filepath.Join(studies, d.Name(), "*"))
		if err != nil {
			return recs, err
		}
		var b strings.Builder
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				return recs, err
			}
			b.Write(data)
			b.WriteString("\n")
		}
		recs.studies[d.Name()] = b.String()
	}
	return recs, nil
}

// readAllow reads the allowed phrases: one a line, whitespace collapsed;
// blank lines and lines starting with # are left out.
func readAllow(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var phrases []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.Join(strings.Fields(sc.Text()), " ")
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		phrases = append(phrases, line)
	}
	return phrases, sc.Err()
}

// docUnit is a paragraph, heading, table row, list item or code block,
// its text with whitespace collapsed and the page line of each byte.
type docUnit struct {
	text  string
	lines []int
	kind  unitKind
}

type unitKind int

const (
	paragraph unitKind = iota
	heading
	introduced // a table row, list item or code block: takes its intro's citations
)

// listItem matches the first line of a list item.
var listItem = regexp.MustCompile(`^\s*(?:[-*+]|\d+\.)\s`)

// pageUnits splits a page into units.
func pageUnits(page string) []docUnit {
	var units []docUnit
	var cur *docUnit
	flush := func() {
		if cur != nil && cur.text != "" {
			units = append(units, *cur)
		}
		cur = nil
	}
	add := func(kind unitKind, n int, line string) {
		if cur == nil {
			cur = &docUnit{kind: kind}
		}
		for _, w := range strings.Fields(line) {
			if cur.text != "" {
				cur.text += " "
				cur.lines = append(cur.lines, n)
			}
			cur.text += w
			for i := 0; i < len(w); i++ {
				cur.lines = append(cur.lines, n)
			}
		}
	}
	inCode := false
	for i, line := range strings.Split(page, "\n") {
		n := i + 1
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(trimmed, "```"):
			flush()
			if !inCode {
				cur = &docUnit{kind: introduced}
			}
			inCode = !inCode
		case inCode:
			add(introduced, n, line)
		case trimmed == "":
			flush()
		case strings.HasPrefix(trimmed, "#"):
			flush()
			add(heading, n, line)
			flush()
		case strings.HasPrefix(trimmed, "|"):
			flush()
			add(introduced, n, line)
			flush()
		case listItem.MatchString(line):
			flush()
			add(introduced, n, line)
		default:
			add(paragraph, n, line)
		}
	}
	flush()
	return units
}

// num is a number as the docs write it: 7, 6.1, 1,085.8.
const num = `(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)`

// sign is a number's sign or ± before a half-width.
const sign = `[+\-−±]?`

// figurePatterns find figures; the first ones win where figures overlap
// (an interval's bounds are part of it, not figures of their own).
var figurePatterns = []*regexp.Regexp{
	// a percentage with its interval
	regexp.MustCompile(sign + num + ` ?% \[` + sign + num + ` ?%?, ` + sign + num + ` ?%?\]`),
	// a rate with its interval
	regexp.MustCompile(num + ` \[` + num + `, ` + num + `\]`),
	// an interval alone
	regexp.MustCompile(`\[` + sign + num + ` ?%, ` + sign + num + ` ?%\]`),
	// a percentage or a range of them
	regexp.MustCompile(sign + num + `(?:–` + num + `)? ?%`),
	// a rate
	regexp.MustCompile(num + `(?:–` + num + `)?k? (?:records/s|msg/s|MB/s|MiB/s)`),
	// a time
	regexp.MustCompile(sign + num + `(?:–` + num + `)? ?(?:ms|µs|s|min|minutes|hours)\b`),
	// a count of rounds
	regexp.MustCompile(num + `(?:–` + num + `)? (?:more )?rounds\b`),
}

// numbers matches the numbers of a figure.
var numbers = regexp.MustCompile(num)

// citation matches what a unit cites: §N, bench/studies/NAME,
// docs/studies.md with or without #NAME.
var citation = regexp.MustCompile(`§(\d+)|bench/studies/([a-z0-9-]+)|studies\.md(?:#([a-z0-9-]+))?`)

// figure is one figure of a unit.
type figure struct {
	text       string
	start, end int
}

// unitFigures finds a unit's figures in the order they stand.
func unitFigures(text string) []figure {
	var figs []figure
	taken := make([]bool, len(text))
	for _, re := range figurePatterns {
		for _, m := range re.FindAllStringIndex(text, -1) {
			if m[0] > 0 && isDigitOrWord(text[m[0]-1]) {
				continue // part of a name or a longer number: "p99", "v4.4"
			}
			if m[1]+1 < len(text) && text[m[1]] == '.' && isDigitOrWord(text[m[1]+1]) {
				continue // a unit that is a name's start: "3 min.insync"
			}
			free := true
			for i := m[0]; i < m[1]; i++ {
				free = free && !taken[i]
			}
			if !free {
				continue
			}
			for i := m[0]; i < m[1]; i++ {
				taken[i] = true
			}
			figs = append(figs, figure{text[m[0]:m[1]], m[0], m[1]})
		}
	}
	sort.Slice(figs, func(i, j int) bool { return figs[i].start < figs[j].start })
	return figs
}

func isDigitOrWord(b byte) bool {
	return b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b == '.' || b == '_'
}

// figureProblems returns one line for each figure of a page that no cited
// record holds and no allowed phrase covers; used gets the phrases that
// covered a figure.
func figureProblems(name, page string, recs records, allow []string, used map[string]bool) []string {
	var problems []string
	var intro []string // the citations of the last paragraph
	for _, u := range pageUnits(page) {
		cites := unitCitations(u.text)
		switch u.kind {
		case paragraph:
			intro = cites
		case heading:
			intro = nil
		case introduced:
			cites = append(cites, intro...)
		}
		for _, f := range unitFigures(u.text) {
			if p, ok := allowedBy(u.text, f, allow); ok {
				used[p] = true
				continue
			}
			where := fmt.Sprintf("%s:%d", name, u.lines[f.start])
			if len(cites) == 0 {
				problems = append(problems, fmt.Sprintf("%s: figure %q has no record: cite a bench/RESULTS.md section or bench/studies run", where, f.text))
				continue
			}
			if !anyHolds(recs, cites, f.text) {
				which := "which does not hold it"
				if len(cites) > 1 {
					which = "none of which holds it"
				}
				problems = append(problems, fmt.Sprintf("%s: figure %q cites %s, %s", where, f.text, strings.Join(cites, ", "), which))
			}
		}
	}
	return problems
}

// unitCitations lists what a unit cites, each once, as the page writes it
// ("§19", "bench/studies/clients", "docs/studies.md#clients").
func unitCitations(text string) []string {
	var cites []string
	seen := map[string]bool{}
	for _, m := range citation.FindAllStringSubmatch(text, -1) {
		var c string
		switch {
		case m[1] != "":
			c = "§" + m[1]
		case m[2] != "":
			c = "bench/studies/" + m[2]
		case m[3] != "":
			c = "docs/studies.md#" + m[3]
		default:
			c = "docs/studies.md"
		}
		if !seen[c] {
			seen[c] = true
			cites = append(cites, c)
		}
	}
	return cites
}

// allowedBy returns the allowed phrase that covers the figure where it
// stands, if one does.
func allowedBy(text string, f figure, allow []string) (string, bool) {
	for _, p := range allow {
		for from := 0; ; {
			i := strings.Index(text[from:], p)
			if i < 0 {
				break
			}
			i += from
			if i <= f.start && f.end <= i+len(p) {
				return p, true
			}
			from = i + 1
		}
	}
	return "", false
}

// anyHolds says whether one of the cited records holds every number of
// the figure.
func anyHolds(recs records, cites []string, fig string) bool {
	for _, c := range cites {
		if holdsAll(recordText(recs, c), fig) {
			return true
		}
	}
	return false
}

// recordText is the text of a cited record; "" when there is none.
func recordText(recs records, cite string) string {
	switch {
	case strings.HasPrefix(cite, "§"):
		return recs.sections[strings.TrimPrefix(cite, "§")]
	case strings.HasPrefix(cite, "bench/studies/"):
		return recs.studies[strings.TrimPrefix(cite, "bench/studies/")]
	case strings.HasPrefix(cite, "docs/studies.md#"):
		return recs.studies[strings.TrimPrefix(cite, "docs/studies.md#")]
	}
	var all []string
	for _, s := range recs.studies {
		all = append(all, s)
	}
	return strings.Join(all, "\n")
}

// thousands matches a thousands separator between digits.
var thousands = regexp.MustCompile(`(\d),(\d{3})`)

// plain drops thousands separators.
func plain(s string) string {
	for {
		t := thousands.ReplaceAllString(s, "$1$2")
		if t == s {
			return s
		}
		s = t
	}
}

// holdsAll says whether the record holds every number of the figure, each
// as a whole number (6.1 is not held by 16.1 or 6.15).
func holdsAll(record, fig string) bool {
	record = plain(record)
	for _, n := range numbers.FindAllString(fig, -1) {
		if !holdsNumber(record, plain(n)) {
			return false
		}
	}
	return record != ""
}

// holdsNumber says whether n stands in text as a whole number.
func holdsNumber(text, n string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], n)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(n)
		before := i == 0 || (!isDigit(text[i-1]) && (text[i-1] != '.' || i <= 1 || !isDigit(text[i-2])))
		after := end == len(text) || (!isDigit(text[end]) && (text[end] != '.' || end+1 >= len(text) || !isDigit(text[end+1])))
		if before && after {
			return true
		}
		from = i + 1
	}
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
