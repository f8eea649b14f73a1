package prodlab_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// yamlBlock is a ```yaml block of a page, with the marker before it.
type yamlBlock struct {
	where string // page:line of the opening fence
	text  string
	// base is the file a fragment is merged into (<!-- fragment of: BASE -->),
	// relative to the repository; "" for a block given as complete.
	base string
	// notExperiment: <!-- not an experiment --> (a manifest, a record).
	notExperiment bool
	// file is the name the page's commands give the block
	// (<!-- file: NAME -->): the sandbox holds it under that name.
	file string
}

// The markers a page writes on the line before a yaml block that is not
// a complete experiment.
var (
	fragmentMarker      = regexp.MustCompile(`^<!--\s*fragment of:\s*(\S+)\s*-->$`)
	notExperimentMarker = regexp.MustCompile(`^<!--\s*not an experiment\s*-->$`)
	fileMarker          = regexp.MustCompile(`^<!--\s*file:\s*(\S+)\s*-->$`)
)

// maxNotExperiments bounds the yaml blocks that are not experiments: the
// list must stay short.
const maxNotExperiments = 3

// TestDocYAML: every ```yaml block of README.md and docs/*.md is an
// experiment `prodlab run FILE --dry-run` accepts as written (marked
// <!-- file: NAME --> when a command runs it as NAME), or a fragment
// marked <!-- fragment of: BASE --> that it accepts merged into BASE
// (the fragment's top-level keys replace BASE's), or marked
// <!-- not an experiment -->.
func TestDocYAML(t *testing.T) {
	sb := newSandbox(t)
	var blocks []yamlBlock
	for _, page := range docPages(t) {
		blocks = append(blocks, pageYAML(t, page)...)
	}
	if len(blocks) < 10 {
		t.Fatalf("found %d yaml blocks; the extraction is broken", len(blocks))
	}
	var skipped []string
	for _, b := range blocks {
		if b.notExperiment {
			skipped = append(skipped, b.where)
			continue
		}
		t.Run(b.where, func(t *testing.T) {
			t.Parallel()
			text := b.text
			if b.base != "" {
				base, err := os.ReadFile(b.base)
				if err != nil {
					t.Fatalf("%s: <!-- fragment of: %s -->: %v", b.where, b.base, err)
				}
				text = mergeTopLevel(string(base), b.text)
			}
			res := sb.runFile(t, "block.yaml", text, "run", "block.yaml", "--dry-run")
			switch {
			case res.code == 0:
			case b.base != "":
				t.Errorf("%s: yaml block merged into %s fails `prodlab run --dry-run` (exit %d):\n%s", b.where, b.base, res.code, res.output)
			default:
				t.Errorf("%s: yaml block is not a complete experiment (%s); mark it <!-- fragment of: BASE -->", b.where, firstLine(res.output))
			}
			checkCalls(t, b.where, res.calls)
		})
	}
	t.Logf("%d yaml blocks; not experiments: %s", len(blocks), strings.Join(skipped, ", "))
	if len(skipped) > maxNotExperiments {
		t.Errorf("%d yaml blocks marked <!-- not an experiment --> (at most %d)", len(skipped), maxNotExperiments)
	}
}

// pageYAML extracts a page's yaml blocks with their markers.
func pageYAML(t *testing.T, page string) []yamlBlock {
	blocks, err := readYAMLBlocks(page)
	if err != nil {
		t.Fatal(err)
	}
	return blocks
}

// readYAMLBlocks reads a page's yaml blocks with their markers.
func readYAMLBlocks(page string) ([]yamlBlock, error) {
	data, err := os.ReadFile(page)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(string(data), "\n")
	var blocks []yamlBlock
	inFence, lang, start, prev := false, "", 0, ""
	var body []string
	for i, line := range lines {
		if m := fence.FindStringSubmatch(line); m != nil {
			if !inFence {
				inFence, lang, start, body = true, m[1], i, nil
				continue
			}
			inFence = false
			if lang == "yaml" {
				b := yamlBlock{where: fmt.Sprintf("%s:%d", page, start+1), text: strings.Join(body, "\n") + "\n"}
				if m := fragmentMarker.FindStringSubmatch(prev); m != nil {
					b.base = m[1]
				}
				if m := fileMarker.FindStringSubmatch(prev); m != nil {
					b.file = m[1]
				}
				b.notExperiment = notExperimentMarker.MatchString(prev)
				blocks = append(blocks, b)
			}
			prev = ""
			continue
		}
		if inFence {
			body = append(body, line)
		} else if s := strings.TrimSpace(line); s != "" {
			prev = s
		}
	}
	return blocks, nil
}

// topLevelKey matches a YAML line that starts a top-level key.
var topLevelKey = regexp.MustCompile(`^([A-Za-z0-9_."-]+)\s*:`)

// mergeTopLevel is base with each top-level key the fragment sets
// replaced by the fragment's: base's sections (a top-level key's line
// and the lines under it) for those keys are dropped and the fragment
// appended.
func mergeTopLevel(base, fragment string) string {
	var keys []string
	for _, line := range strings.Split(fragment, "\n") {
		if m := topLevelKey.FindStringSubmatch(line); m != nil {
			keys = append(keys, m[1])
		}
	}
	var out []string
	dropping := false
	for _, line := range strings.Split(base, "\n") {
		if m := topLevelKey.FindStringSubmatch(line); m != nil {
			dropping = slices.Contains(keys, m[1])
		}
		if !dropping {
			out = append(out, line)
		}
	}
	return strings.Join(out, "\n") + "\n" + fragment
}

// firstLine is the first line of s.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}

// runFile writes text as name in a fresh copy of the work directory
// and runs prodlab with args there.
func (sb *sandbox) runFile(t *testing.T, name, text string, args ...string) result {
	t.Helper()
	return sb.runIn(t, args, "", func(dir string) error {
		return os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
	})
}

// pageFiles are the yaml blocks marked <!-- file: NAME -->, by NAME; a
// name given twice, or given a fixture's name, is an error.
func pageFiles(pages []string) (map[string]yamlBlock, error) {
	files := map[string]yamlBlock{}
	for _, page := range pages {
		blocks, err := readYAMLBlocks(page)
		if err != nil {
			return nil, err
		}
		for _, b := range blocks {
			if b.file == "" {
				continue
			}
			if prev, ok := files[b.file]; ok {
				return nil, fmt.Errorf("%s: <!-- file: %s --> names the block of %s too", b.where, b.file, prev.where)
			}
			if _, ok := fixtureFiles[b.file]; ok {
				return nil, fmt.Errorf("%s: <!-- file: %s --> is the name of a fixture in testdata/cmds", b.where, b.file)
			}
			files[b.file] = b
		}
	}
	return files, nil
}
