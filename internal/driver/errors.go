package driver

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// TopErrors summarises a trial's failed records (Result.Errors: count per
// message) as "<count>x <message>" for the n most frequent messages, most
// frequent first and ties by message, joined by "; ", so the same counts
// always give the same text. It returns "" when errs is empty.
func TopErrors(errs map[string]int64, n int) string {
	msgs := slices.Sorted(maps.Keys(errs))
	slices.SortStableFunc(msgs, func(a, b string) int { return cmp.Compare(errs[b], errs[a]) })
	if len(msgs) > n {
		msgs = msgs[:max(n, 0)]
	}
	parts := make([]string, len(msgs))
	for i, m := range msgs {
		parts[i] = fmt.Sprintf("%dx %s", errs[m], m)
	}
	return strings.Join(parts, "; ")
}
