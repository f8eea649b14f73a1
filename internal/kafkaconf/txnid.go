package kafkaconf

import "strings"

// SuffixedTransactionalID is id as one producer of one trial runs it: id,
// then "-" and suffix (the trial's topic, a producer's -p<i>, a Trogdor
// node), so that no producer fences another.
func SuffixedTransactionalID(id, suffix string) string { return id + "-" + suffix }

// RunsAsTransactionalID reports whether reported, the transactional.id a
// client ran with, is id as prodlab runs it: id itself, or id with its
// suffixes (SuffixedTransactionalID).
func RunsAsTransactionalID(reported, id string) bool {
	return reported == id || strings.HasPrefix(reported, id+"-")
}
