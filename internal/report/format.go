package report

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/summary"
	"github.com/prodlab/prodlab/internal/textfmt"
)

// none marks a figure that was not measured.
const none = "-"

// scenarioLabel renders a scenario's matrix values as "k=v k=v", in matrix
// order when the record carries it and sorted by key otherwise. A scenario
// without matrix values (a single-scenario experiment) is "default".
func scenarioLabel(r results.Record) string {
	keys := r.ScenarioKeys
	if len(keys) == 0 {
		keys = slices.Sorted(maps.Keys(r.Scenario))
	}
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		if v, ok := r.Scenario[k]; ok {
			parts = append(parts, k+"="+formatValue(v))
		}
	}
	if len(parts) == 0 {
		if r.ScenarioID != "" {
			return r.ScenarioID
		}
		return "default"
	}
	return strings.Join(parts, " ")
}

// formatValue renders a matrix value as the user wrote it: JSON numbers
// decode as float64, and 5 must read "5", not "5.000000".
func formatValue(v any) string {
	switch v := v.(type) {
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case string:
		return v
	case nil:
		return "null"
	default:
		return fmt.Sprint(v)
	}
}

// thousands renders n rounded to an integer with comma separators.
func thousands(n float64) string { return textfmt.Group(math.Round(n), 0) }

// seconds renders an elapsed time: "1.91s" under a minute, "2m3s" above.
func seconds(s float64) string {
	if s < 60 {
		return strconv.FormatFloat(s, 'f', 2, 64) + "s"
	}
	return time.Duration(s * float64(time.Second)).Round(time.Second).String()
}

// ms renders a latency in milliseconds.
func ms(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }

// iecBytes renders a byte count in binary units ("23.4 MiB"); 0 (not
// measured) is none.
func iecBytes(n float64) string {
	if n <= 0 {
		return none
	}
	const unit = 1024
	if n < unit {
		return strconv.FormatFloat(n, 'f', 0, 64) + " B"
	}
	exp := 0
	for n >= unit && exp < 6 {
		n /= unit
		exp++
	}
	return strconv.FormatFloat(n, 'f', 1, 64) + " " + string("KMGTPE"[exp-1]) + "iB"
}

// ratio renders a compression ratio; 0 (not measured) is none.
func ratio(v float64) string {
	if v <= 0 {
		return none
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// shortErrLen bounds the error shown in a table row; the footnote has it all.
const shortErrLen = 60

// shortError returns the first line of msg, cut to shortErrLen runes.
func shortError(msg string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > shortErrLen {
		return string(r[:shortErrLen-1]) + "…"
	}
	return line
}

// statsLabel is scenarioLabel for a summarised scenario.
func statsLabel(s *summary.ScenarioStats) string {
	return scenarioLabel(results.Record{Scenario: s.Values, ScenarioKeys: s.Keys, ScenarioID: s.ID})
}
