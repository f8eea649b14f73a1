package expfile

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/prodlab/prodlab/experiments"
	"github.com/prodlab/prodlab/internal/inputfile"
)

// Load reads an experiment from a file, or when no such file exists, the
// built-in experiment of that name (with or without ".yaml"), then applies
// the --set overrides in sets and validates it (see Parse).
func Load(nameOrPath string, sets []string) (*Experiment, error) {
	data, err := inputfile.Read(nameOrPath)
	if err == nil {
		return Parse(nameOrPath, data, sets)
	}
	if !errors.Is(err, fs.ErrNotExist) || looksLikePath(nameOrPath) {
		return nil, fmt.Errorf("read experiment: %w", err)
	}
	file := strings.TrimSuffix(nameOrPath, ".yaml") + ".yaml"
	data, ferr := fs.ReadFile(experiments.FS, file)
	if ferr != nil {
		names, _ := builtinNames()
		return nil, &Error{File: nameOrPath, Msg: fmt.Sprintf("no such file or built-in experiment%s (built-ins: %s)",
			didYouMean(strings.TrimSuffix(nameOrPath, ".yaml"), names), strings.Join(names, ", "))}
	}
	return Parse(file, data, sets)
}

// looksLikePath reports whether s was meant as a file path rather than a
// built-in name.
func looksLikePath(s string) bool {
	return strings.ContainsRune(s, '/') || strings.ContainsRune(s, filepath.Separator) || filepath.Ext(s) == ".yml"
}

// builtinNames lists the embedded experiments by name, sorted.
func builtinNames() ([]string, error) {
	files, err := fs.Glob(experiments.FS, "*.yaml")
	if err != nil {
		return nil, fmt.Errorf("list built-in experiments: %w", err)
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = strings.TrimSuffix(f, ".yaml")
	}
	sort.Strings(names)
	return names, nil
}

// Builtins parses every embedded experiment and returns their names and
// descriptions, sorted by name. A built-in that does not validate is an
// error: it is a bug in the binary.
func Builtins() ([]Builtin, error) {
	names, err := builtinNames()
	if err != nil {
		return nil, err
	}
	out := make([]Builtin, 0, len(names))
	for _, n := range names {
		data, err := fs.ReadFile(experiments.FS, n+".yaml")
		if err != nil {
			return nil, fmt.Errorf("read built-in experiment %s: %w", n, err)
		}
		e, err := Parse(n+".yaml", data, nil)
		if err != nil {
			return nil, fmt.Errorf("built-in experiment %s: %w", n, err)
		}
		out = append(out, Builtin{Name: n, Description: e.Description})
	}
	return out, nil
}
