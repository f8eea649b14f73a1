package kafkaconf

import (
	"maps"
	"strconv"
	"strings"
)

// SuffixedTransactionalID is id as one producer of one trial runs it: id,
// then "-" and suffix (the trial's topic, a producer's -p<i>, a Trogdor
// node), so that no producer fences another.
func SuffixedTransactionalID(id, suffix string) string { return id + "-" + suffix }

// WithSuffixedTransactionalID returns props with its transactional.id
// made SuffixedTransactionalID(id, suffix), props itself unchanged; props
// as they are without an id. Producers that shared an id would fence each
// other (each initTransactions bumps the id's epoch and aborts the other's
// open transaction), so every producer of a trial — and every trial —
// gets its own, with the user's id as the prefix.
func WithSuffixedTransactionalID(props map[string]string, suffix string) map[string]string {
	id := props[TransactionalID]
	if id == "" {
		return props
	}
	out := maps.Clone(props)
	out[TransactionalID] = SuffixedTransactionalID(id, suffix)
	return out
}

// WithTransactionSchedule returns props with the default commit interval
// written out (transaction.duration.ms DefaultTransactionDurationMs) when
// it is a transactional producer's and names neither bound, props itself
// unchanged; props as they are otherwise. The Java worker applies no
// default of its own: this package owns it, and every run request says it.
func WithTransactionSchedule(props map[string]string) map[string]string {
	p := ParseValid(props)
	if p.TransactionalID == "" || p.TransactionDurationMs.Set || p.TransactionRecords.Set {
		return props
	}
	out := maps.Clone(props)
	out[TransactionDurationMs] = strconv.Itoa(DefaultTransactionDurationMs)
	return out
}

// RunsAsTransactionalID reports whether reported, the transactional.id a
// client ran with, is id as prodlab runs it: id itself, or id with its
// suffixes (SuffixedTransactionalID).
func RunsAsTransactionalID(reported, id string) bool {
	return reported == id || strings.HasPrefix(reported, id+"-")
}
