package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/prodlab/prodlab/internal/results"
)

// Output format names accepted by Render (and the --format flags).
const (
	FormatTable    = "table"
	FormatPerfTest = "perf-test"
	FormatCSV      = "csv"
	FormatJSON     = "json"
	FormatMarkdown = "markdown"
)

// formats maps each format name to its renderer, in the order Formats
// lists them.
var formats = []struct {
	name   string
	render func(io.Writer, []results.Record) error
}{
	{FormatTable, Table},
	{FormatPerfTest, PerfTest},
	{FormatCSV, CSV},
	{FormatJSON, JSON},
	{FormatMarkdown, Markdown},
}

// Formats returns the names Render accepts, the default (table) first.
func Formats() []string {
	names := make([]string, len(formats))
	for i, f := range formats {
		names[i] = f.name
	}
	return names
}

// ValidFormat returns nil when name is a format Render accepts, and
// otherwise an error listing the valid ones, for flag validation before a
// run starts.
func ValidFormat(name string) error {
	for _, f := range formats {
		if f.name == name {
			return nil
		}
	}
	return fmt.Errorf("unknown format %q: want one of %s", name, strings.Join(Formats(), ", "))
}

// Render writes recs to w in the named format (see Formats).
func Render(w io.Writer, format string, recs []results.Record) error {
	for _, f := range formats {
		if f.name == format {
			return f.render(w, recs)
		}
	}
	return ValidFormat(format)
}
