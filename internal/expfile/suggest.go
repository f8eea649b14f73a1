package expfile

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// suggest returns the candidate closest to word, or "" when none is close
// enough to be a plausible typo. Closeness is the optimal-string-alignment
// (Damerau–Levenshtein) distance; a candidate that extends word by a dotted
// suffix ("linger" → "linger.ms") also counts as close.
func suggest(word string, candidates []string) string {
	best, bestD := "", -1
	limit := max(2, len(word)/3)
	for _, c := range candidates {
		// The distance is at least the difference in length: skip the
		// quadratic work for a word no candidate can be near (a key of a
		// megabyte would otherwise take seconds per candidate).
		if abs(utf8.RuneCountInString(c)-utf8.RuneCountInString(word)) > limit && !strings.HasPrefix(c, word+".") {
			continue
		}
		d := editDistance(strings.ToLower(word), strings.ToLower(c))
		if d > limit && !strings.HasPrefix(c, word+".") {
			continue
		}
		if bestD < 0 || d < bestD || (d == bestD && c < best) {
			best, bestD = c, d
		}
	}
	return best
}

// abs is the absolute value of n.
func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// didYouMean formats the suggestion suffix of an unknown-key message.
func didYouMean(word string, candidates []string) string {
	if s := suggest(word, candidates); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// keyHint ends an unknown-key message. A key that is the dotted tail of
// several of keys ("size" of producer.batch.size and workload.record.size)
// is ambiguous: the hint says so and lists them. The tail of one key
// suggests that key; otherwise the closest of spellings, if any is close.
func keyHint(key string, keys, spellings []string) string {
	var tails []string
	for _, k := range keys {
		if strings.HasSuffix(k, "."+key) && !slices.Contains(tails, k) {
			tails = append(tails, k)
		}
	}
	slices.Sort(tails)
	switch len(tails) {
	case 0:
		return didYouMean(key, spellings)
	case 1:
		return fmt.Sprintf("; did you mean %q?", tails[0])
	}
	return fmt.Sprintf(" is ambiguous; did you mean one of %s?", strings.Join(tails, ", "))
}

// editDistance is kafkaconf.EditDistance, the one definition.
func editDistance(a, b string) int { return kafkaconf.EditDistance(a, b) }
