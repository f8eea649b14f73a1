// Package auditheader is the record header that ties a record read back from
// Kafka to the producer run and sequence number that wrote it: the producer
// drivers write it and the audit parses it. It imports nothing of prodlab, so
// the drivers need not import the audit.
package auditheader

import (
	"strconv"
	"time"
)

// Key is the record header that carries a producer run's tag and a
// record's sequence number, as ASCII "<tag>/<seq>". Both drivers write it.
const Key = "prodlab"

// Append appends the header value for (tag, seq) to dst and returns it,
// so hot loops can reuse one buffer.
func Append(dst []byte, tag string, seq int64) []byte {
	dst = append(dst, tag...)
	dst = append(dst, '/')
	return strconv.AppendInt(dst, seq, 10)
}

// Parse splits a header value into its tag and sequence number.
// The tag is everything before the last '/' and must not be empty; the
// sequence number is one or more ASCII digits (no sign) that fit an int64.
func Parse(v []byte) (tag string, seq int64, ok bool) {
	t, seq, ok := ParseBytes(v)
	if !ok {
		return "", 0, false
	}
	return string(t), seq, true
}

// ParseBytes is Parse without allocating: the tag aliases v. The audit's
// hot path uses it for every record read back.
func ParseBytes(v []byte) (tag []byte, seq int64, ok bool) {
	i := len(v) - 1
	for i >= 0 && v[i] != '/' {
		i--
	}
	if i <= 0 || i == len(v)-1 {
		return nil, 0, false
	}
	const cutoff = (1<<63 - 1) / 10
	for _, d := range v[i+1:] {
		if d < '0' || d > '9' {
			return nil, 0, false
		}
		if seq > cutoff {
			return nil, 0, false
		}
		seq = seq*10 + int64(d-'0')
		if seq < 0 { // overflowed past MaxInt64
			return nil, 0, false
		}
	}
	return v[:i], seq, true
}

// TimeKey is the record header that carries a record's hand-off time to
// its producer, as ASCII microseconds since the Unix epoch. Both drivers
// write it when an end-to-end latency consumer reads the trial's topic
// (and only then: it costs a header per record); the consumer subtracts it
// from its own clock, the same host's.
const TimeKey = "prodlab-t"

// AppendTime appends the TimeKey header value for t to dst.
func AppendTime(dst []byte, t time.Time) []byte {
	return strconv.AppendInt(dst, t.UnixMicro(), 10)
}

// ParseTime parses a TimeKey header value into µs since the epoch.
func ParseTime(v []byte) (us int64, ok bool) {
	if len(v) == 0 || len(v) > 18 { // 18 digits cannot overflow an int64
		return 0, false
	}
	for _, d := range v {
		if d < '0' || d > '9' {
			return 0, false
		}
		us = us*10 + int64(d-'0')
	}
	return us, true
}
