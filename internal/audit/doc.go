// Package audit reads a scenario's topic back and checks every record
// against what the producer sent and saw acknowledged: lost, duplicated,
// reordered, phantom and foreign records.
//
// Idempotent producers exist so that retries don't write duplicates; prodlab
// proves (or disproves) it by reading the topic back. Each record a producer
// driver writes carries the header [auditheader.Key] = "<tag>/<seq>", where
// tag names one producer run and seq numbers the records handed to the
// producer 0..sent-1. The audit knows nothing about drivers: what the producer
// application was told about each seq comes in through the [Outcome]
// interface, and the records come in through [Checker.Observe], fed by
// [ReadBack] or by a test.
//
// # Definitions
//
//   - acked: sequence numbers in [0, sent) the producer saw acknowledged.
//   - lost: acknowledged, but not found in the topic.
//   - duplicates: extra copies. A sequence number found k > 1 times counts
//     k-1, wherever the copies are (same or different partitions).
//   - reordered: within one partition, a record of this producer run whose
//     seq is lower than the highest seq of this run seen earlier in that
//     partition. Each such record counts once. A duplicate is counted only
//     as a duplicate, never also as reordered, although a re-delivered copy
//     necessarily goes backwards: one fault, one count. Partitions are
//     independent: a low seq in partition 1 after a high seq in partition 0
//     is not reordering. When the copies of a duplicated seq sit in
//     different partitions, a copy that is in order in its partition is
//     taken as the original, whichever partition is read first, so the
//     counts don't depend on read order.
//   - phantom: the send was reported FAILED to the application, yet the
//     record is in the topic (counted once per sequence number; further
//     copies are duplicates). An application that retries on failure would
//     write it twice.
//   - foreign: records that are not this run's: no prodlab header, a header
//     that does not parse, another run's tag, or a seq outside [0, sent).
//     The last case is really a driver or tagging bug (this run never handed
//     such a seq to the producer); it is counted as foreign rather than
//     crash or index out of range, so a large foreign count on a topic that
//     only this run wrote is worth a look.
//
// Sequence numbers reported neither acked nor failed (in flight when the
// producer stopped, e.g. on a timeout) are not lost when missing and not
// phantom when present. A sequence number reported both acked and failed is
// a driver bug; the two definitions are applied independently, so it counts
// as acked (and lost if missing) and as phantom if present.
//
// # Cost
//
// The checker keeps two bits per sequence number (seen at least once, and
// first copy out of order: 10 million records are 2.5 MB) and a few words
// per partition; everything else is a counter. A "seen twice" bitset is not
// needed because every observation of an already seen seq is exactly one
// extra copy. Observe does not allocate.
package audit
