// Package textfmt formats numbers for people: thousands separators. It
// imports nothing of prodlab, so packages that print counts (progress,
// audit) need not import stats for it.
package textfmt

import (
	"math"
	"strconv"
	"strings"
)

// Group renders v with prec decimals and a comma between every three
// integer digits: Group(52340.4, 0) is "52,340".
func Group(v float64, prec int) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', prec, 64)
	}
	s := strconv.FormatFloat(v, 'f', prec, 64)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	intPart, frac, hasFrac := strings.Cut(s, ".")
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}
