package prodlab_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// recipesHeading opens docs/architecture.md's section that says, for each
// kind of change (a fault type, a client, a setting, a run mode, …), the
// files and names one touches.
const recipesHeading = "## To add …"

// TestRecipes holds that section to the code, as TestLayering holds the
// import table: every file it names exists, every `pkg.Name` it names is
// declared in internal/pkg, and every test it names exists. A rename or a
// move that leaves the recipe behind fails here.
func TestRecipes(t *testing.T) {
	doc, err := os.ReadFile(architectureDoc)
	if err != nil {
		t.Fatal(err)
	}
	section, err := recipesSection(string(doc))
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range recipeProblems(section, ".") {
		t.Error(msg)
	}
}

// recipesSection is the text of the recipes section.
func recipesSection(doc string) (string, error) {
	_, rest, ok := strings.Cut(doc, "\n"+recipesHeading+"\n")
	if !ok {
		return "", fmt.Errorf("%s has no %q section", architectureDoc, recipesHeading)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return rest, nil
}

var (
	backticked = regexp.MustCompile("`([^`]+)`")
	repoPath   = regexp.MustCompile(`^(?:internal|cmd|bench|experiments|java|docs)/[\w./-]+\.(?:go|java|yaml|tsv|md|sh)$`)
	qualified  = regexp.MustCompile(`^([a-z]+)\.([A-Za-z_]\w*)(?:\.\w+)?(?:\(.*\))?$`)
	testName   = regexp.MustCompile(`^Test[A-Z]\w*$`)
)

// recipeProblems checks the names a recipes section mentions against the
// tree at root.
func recipeProblems(section, root string) []string {
	var out []string
	for _, m := range backticked.FindAllStringSubmatch(section, -1) {
		tok := m[1]
		switch {
		case repoPath.MatchString(tok):
			if _, err := os.Stat(filepath.Join(root, tok)); err != nil {
				out = append(out, fmt.Sprintf("%s names %s, which does not exist", recipesHeading, tok))
			}
		case testName.MatchString(tok):
			if !declaredIn(root, "", `func `+tok+`\(`, true) {
				out = append(out, fmt.Sprintf("%s names the test %s, which no _test.go declares", recipesHeading, tok))
			}
		default:
			q := qualified.FindStringSubmatch(tok)
			if q == nil {
				continue
			}
			pkg := filepath.Join("internal", q[1])
			if _, err := os.Stat(filepath.Join(root, pkg)); err != nil {
				continue // not a prodlab package (a file name, a YAML key)
			}
			// A declaration: func, method, type, var or const, or a
			// line that begins with the name (a field, a block's entry),
			// not a mention in a comment.
			decl := `(?m)^\s*(?:(?:func(?:\s*\([^)]*\))?|type|var|const)\s+)?` + q[2] + `\b`
			if !declaredIn(root, pkg, decl, false) {
				out = append(out, fmt.Sprintf("%s names %s, which internal/%s does not declare", recipesHeading, tok, q[1]))
			}
		}
	}
	return out
}

// declaredIn reports whether a .go file under root/dir (every one when
// dir is ""; only _test.go files when tests, else none of them) matches
// pattern.
func declaredIn(root, dir, pattern string, tests bool) bool {
	re := regexp.MustCompile(pattern)
	found := false
	_ = filepath.WalkDir(filepath.Join(root, dir), func(path string, d os.DirEntry, err error) error {
		if err != nil || found {
			return err
		}
		if d.IsDir() {
			if dir != "" && path != filepath.Join(root, dir) {
				return filepath.SkipDir // the package's own files only
			}
			if name := d.Name(); name == "out" || name == ".git" || name == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") != tests {
			return nil
		}
		b, err := os.ReadFile(path)
		if err == nil && re.Match(b) {
			found = true
		}
		return nil
	})
	return found
}

// TestRecipeProblems: the check finds a missing file, an undeclared name
// and a missing test, names each, and lets what exists pass.
func TestRecipeProblems(t *testing.T) {
	tests := []struct {
		name, section string
		want          []string
	}{
		{name: "what exists", section: "- `internal/expfile/faults.go`, `expfile.Experiment`, `TestRecipes`, `linger.ms`, `payload.Kinds()`"},
		{name: "a missing file", section: "- `internal/expfile/fault_gone.go`",
			want: []string{"## To add … names internal/expfile/fault_gone.go, which does not exist"}},
		{name: "an undeclared name", section: "- `expfile.noSuchRegistry`",
			want: []string{"## To add … names expfile.noSuchRegistry, which internal/expfile does not declare"}},
		{name: "a missing test", section: "- `TestNoSuchThing`",
			want: []string{"## To add … names the test TestNoSuchThing, which no _test.go declares"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := recipeProblems(tt.section, ".")
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}
