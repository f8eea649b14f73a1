package audit

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/textfmt"
)

// IncompleteError is returned by ReadBack when it could not read every
// partition to its end offset. It says what was verified before the stop;
// the Checker's Result covers exactly that part.
type IncompleteError struct {
	Topic string
	// Read and Total count offsets: consumed so far, and between the start
	// and end offsets listed when the audit started. Total is -1 when the
	// offsets could not be listed.
	Read, Total int64
	// Complete lists the partitions read to their end offset.
	Complete []int32
	// Stopped maps each unfinished partition to the next offset it would
	// have read.
	Stopped map[int32]int64
	// Cause is why the read stopped.
	Cause error
}

// Error reads e.g. "audit incomplete: read 123,456 of 200,000 records
// (partitions 0,2 complete; 1 stopped at offset 5,000): <cause>".
func (e *IncompleteError) Error() string {
	var b strings.Builder
	b.WriteString("audit incomplete: ")
	if e.Total < 0 {
		fmt.Fprintf(&b, "nothing read from topic %q: %v", e.Topic, e.Cause)
		return b.String()
	}
	fmt.Fprintf(&b, "read %s of %s records (", group(e.Read), group(e.Total))
	if len(e.Complete) == 0 {
		b.WriteString("no partition complete")
	} else {
		b.WriteString("partitions ")
		for i, p := range e.Complete {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Itoa(int(p)))
		}
		b.WriteString(" complete")
	}
	stopped := slices.Sorted(maps.Keys(e.Stopped))
	for _, p := range stopped {
		fmt.Fprintf(&b, "; %d stopped at offset %s", p, group(e.Stopped[p]))
	}
	fmt.Fprintf(&b, "): %v", e.Cause)
	return b.String()
}

// Unwrap returns the cause, so errors.Is(err, context.DeadlineExceeded)
// works.
func (e *IncompleteError) Unwrap() error { return e.Cause }

// group formats n with thousands separators: 1234567 → "1,234,567".
func group(n int64) string { return textfmt.Group(float64(n), 0) }
