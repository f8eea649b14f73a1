package prodlab_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// module is the import path prefix of prodlab's own packages.
const module = "github.com/prodlab/prodlab"

// architectureDoc holds the layering table, under layeringHeading.
var architectureDoc = filepath.Join("docs", "architecture.md")

const layeringHeading = "## Layering"

// TestLayering: every package's prodlab imports are exactly what
// docs/architecture.md's layering table lists for it, as `go list` sees
// them (non-test files, with the librdkafka build tag so that the
// librdkafka worker and its files are included). An import the table does
// not allow, an allowance the code no longer uses and a package the table
// does not name all fail, so the next drift between the code and the doc
// fails here.
func TestLayering(t *testing.T) {
	table, err := readLayering(architectureDoc)
	if err != nil {
		t.Fatal(err)
	}
	imports, err := moduleImports()
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range layeringViolations(table, imports) {
		t.Error(msg)
	}
}

// TestLayeringViolations: the comparison reports each kind of drift in
// words that name the package, the import and the table.
func TestLayeringViolations(t *testing.T) {
	table := map[string][]string{
		"internal/a": nil,
		"internal/b": {"internal/a"},
	}
	tests := []struct {
		name    string
		imports map[string][]string
		want    []string
	}{
		{"as the table says", map[string][]string{"internal/a": nil, "internal/b": {"internal/a"}}, nil},
		{"an import the table does not allow",
			map[string][]string{"internal/a": {"internal/b"}, "internal/b": {"internal/a"}},
			[]string{"internal/a imports internal/b, which docs/architecture.md's layering table does not allow"}},
		{"an allowance the code does not use",
			map[string][]string{"internal/a": nil, "internal/b": nil},
			[]string{"docs/architecture.md's layering table lets internal/b import internal/a, which it does not: take internal/a out of its row"}},
		{"a package the table does not name",
			map[string][]string{"internal/a": nil, "internal/b": {"internal/a"}, "internal/c": {"internal/a"}},
			[]string{"internal/c is not in docs/architecture.md's layering table: add a row with what it may import"}},
		{"a row for a package that does not exist",
			map[string][]string{"internal/b": nil},
			[]string{
				"docs/architecture.md's layering table lets internal/b import internal/a, which it does not: take internal/a out of its row",
				"docs/architecture.md's layering table names internal/a, which is no package of the module: take it out",
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := layeringViolations(table, tt.imports)
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n%q\nwant\n%q", got, tt.want)
			}
		})
	}
}

// TestReadLayering: the table's rows are read with their line numbers
// for errors, and a malformed row is refused at its line.
func TestReadLayering(t *testing.T) {
	tests := []struct {
		name, doc string
		want      map[string][]string
		wantErr   string
	}{
		{"rows", "# x\n\n## Layering\n\ntext\n\n| package | may import (prodlab packages) | why |\n|---|---|---|\n| `internal/a`, `internal/c` | — | leaves |\n| `internal/b` | `internal/a`, `internal/c` | |\n\n## Next\n| `internal/z` | — | |\n",
			map[string][]string{"internal/a": {}, "internal/c": {}, "internal/b": {"internal/a", "internal/c"}}, ""},
		{"no heading", "# x\n", nil, "doc.md has no \"## Layering\" section"},
		{"no table", "## Layering\n\ntext\n", nil, "doc.md: the \"## Layering\" section has no table"},
		{"a bare name", "## Layering\n| package | may import | why |\n|---|---|---|\n| internal/a | — | |\n", nil, "doc.md:4: \"internal/a\" is not a `package` name in backquotes"},
		{"empty imports", "## Layering\n| package | may import | why |\n|---|---|---|\n| `internal/a` |  | |\n", nil, "doc.md:4: no imports listed for internal/a (write — for none)"},
		{"twice", "## Layering\n| package | may import | why |\n|---|---|---|\n| `internal/a` | — | |\n| `internal/a` | — | |\n", nil, "doc.md:5: internal/a has a row already"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := parseLayering("doc.md", strings.NewReader(tt.doc))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for p, w := range tt.want {
				if !slices.Equal(got[p], w) {
					t.Errorf("%s: got %v, want %v", p, got[p], w)
				}
			}
		})
	}
}

// layeringViolations compares what the table allows each package with
// what it imports, in a stable order: per package, its imports the table
// does not allow, then the allowances it does not use; then packages
// missing from the table and rows for packages that do not exist.
func layeringViolations(table, imports map[string][]string) []string {
	var out []string
	for _, p := range sortedKeys(imports) {
		allowed, ok := table[p]
		if !ok {
			out = append(out, fmt.Sprintf("%s is not in docs/architecture.md's layering table: add a row with what it may import", p))
			continue
		}
		for _, imp := range imports[p] {
			if !slices.Contains(allowed, imp) {
				out = append(out, fmt.Sprintf("%s imports %s, which docs/architecture.md's layering table does not allow", p, imp))
			}
		}
		for _, a := range allowed {
			if !slices.Contains(imports[p], a) {
				out = append(out, fmt.Sprintf("docs/architecture.md's layering table lets %s import %s, which it does not: take %s out of its row", p, a, a))
			}
		}
	}
	for _, p := range sortedKeys(table) {
		if _, ok := imports[p]; !ok {
			out = append(out, fmt.Sprintf("docs/architecture.md's layering table names %s, which is no package of the module: take it out", p))
		}
	}
	return out
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// readLayering reads the layering table of the architecture doc.
func readLayering(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseLayering(path, f)
}

// parseLayering reads the first Markdown table under layeringHeading: its
// first cell names one or more packages (module-relative, in backquotes),
// its second what they may import, in backquotes, or — for nothing.
// Further cells are prose. The table ends at the first line that is not a
// row.
func parseLayering(name string, r io.Reader) (map[string][]string, error) {
	sc := bufio.NewScanner(r)
	line, inSection, inTable, rows := 0, false, false, 0
	table := map[string][]string{}
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		switch {
		case !inSection:
			inSection = text == layeringHeading
			continue
		case !strings.HasPrefix(text, "|"):
			if inTable || strings.HasPrefix(text, "## ") {
				return finishLayering(name, table, rows)
			}
			continue
		}
		inTable = true
		rows++
		if rows <= 2 { // the header and its rule
			continue
		}
		cells := strings.Split(strings.Trim(text, "|"), "|")
		if len(cells) < 2 {
			return nil, fmt.Errorf("%s:%d: a row needs a package cell and an imports cell", name, line)
		}
		pkgs, err := codeNames(name, line, cells[0])
		if err != nil {
			return nil, err
		}
		allowed := []string{}
		if c := strings.TrimSpace(cells[1]); c != "—" {
			if allowed, err = codeNames(name, line, c); err != nil {
				return nil, err
			}
			if len(allowed) == 0 {
				return nil, fmt.Errorf("%s:%d: no imports listed for %s (write — for none)", name, line, strings.Join(pkgs, ", "))
			}
		}
		for _, p := range pkgs {
			if _, dup := table[p]; dup {
				return nil, fmt.Errorf("%s:%d: %s has a row already", name, line, p)
			}
			table[p] = allowed
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if !inSection {
		return nil, fmt.Errorf("%s has no %q section", name, layeringHeading)
	}
	return finishLayering(name, table, rows)
}

func finishLayering(name string, table map[string][]string, rows int) (map[string][]string, error) {
	if rows == 0 {
		return nil, fmt.Errorf("%s: the %q section has no table", name, layeringHeading)
	}
	return table, nil
}

// codeNames reads a cell of comma-separated names in backquotes.
func codeNames(file string, line int, cell string) ([]string, error) {
	var names []string
	for _, f := range strings.Split(cell, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		n, pre := strings.CutPrefix(f, "`")
		n, suf := strings.CutSuffix(n, "`")
		if !pre || !suf || n == "" || strings.Contains(n, "`") {
			return nil, fmt.Errorf("%s:%d: %q is not a `package` name in backquotes", file, line, f)
		}
		names = append(names, n)
	}
	return names, nil
}

// moduleImports lists each package of the module that has Go files with
// its imports of the module's packages, module-relative, from `go list`.
func moduleImports() (map[string][]string, error) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		return nil, fmt.Errorf("the go tool is not on PATH: %w", err)
	}
	cmd := exec.Command(goTool, "list", "-tags", "librdkafka", "-json=ImportPath,Imports,GoFiles,CgoFiles", "./...")
	// With cgo off, files that import "C" would drop out of the list.
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %w: %s", err, stderr.String())
	}
	imports := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath        string
			Imports           []string
			GoFiles, CgoFiles []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return nil, fmt.Errorf("go list output: %w", err)
		}
		if len(p.GoFiles)+len(p.CgoFiles) == 0 {
			continue // the module root holds tests only
		}
		own := []string{}
		for _, imp := range p.Imports {
			if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
				own = append(own, rel)
			}
		}
		imports[strings.TrimPrefix(p.ImportPath, module+"/")] = own
	}
	return imports, nil
}
