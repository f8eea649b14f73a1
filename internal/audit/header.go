package audit

import "strconv"

// HeaderKey is the record header that carries a producer run's tag and a
// record's sequence number, as ASCII "<tag>/<seq>". Both drivers write it.
const HeaderKey = "prodlab"

// AppendHeader appends the header value for (tag, seq) to dst and returns it,
// so hot loops can reuse one buffer.
func AppendHeader(dst []byte, tag string, seq int64) []byte {
	dst = append(dst, tag...)
	dst = append(dst, '/')
	return strconv.AppendInt(dst, seq, 10)
}

// ParseHeader splits a header value into its tag and sequence number.
// The tag is everything before the last '/' and must not be empty; the
// sequence number is one or more ASCII digits (no sign) that fit an int64.
func ParseHeader(v []byte) (tag string, seq int64, ok bool) {
	t, seq, ok := parseHeader(v)
	if !ok {
		return "", 0, false
	}
	return string(t), seq, true
}

// parseHeader is ParseHeader without allocating: the tag aliases v. The
// checker's hot path uses it for every record read back.
func parseHeader(v []byte) (tag []byte, seq int64, ok bool) {
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
