package netem

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Kafka API keys the proxy looks at.
const (
	apiProduce         int16 = 0
	apiFetch           int16 = 1
	apiMetadata        int16 = 3
	apiFindCoordinator int16 = 10
)

const (
	// reqPrefixCap is how much of each request the scanner keeps: enough for
	// the header and, for produce, the transactional id and acks. Payloads
	// are never copied.
	reqPrefixCap = 1024
	// maxFrame rejects sizes no broker accepts (socket.request.max.bytes is
	// 100 MiB by default); a larger size means we lost the framing.
	maxFrame = 1 << 30
	// maxRewriteFrame bounds a Metadata/FindCoordinator response buffered
	// whole for rewriting.
	maxRewriteFrame = 256 << 20
)

// errFraming reports a stream that is not size-prefixed Kafka frames.
var errFraming = errors.New("netem: lost kafka framing")

// requestInfo is what the proxy learns from one complete client→broker frame.
type requestInfo struct {
	Key, Version int16
	Corr         int32
	// Acks of a produce request; AcksKnown is false when the header was too
	// long to find it within reqPrefixCap (the request is then assumed to
	// expect a response).
	Acks      int16
	AcksKnown bool
	// Bytes is the frame size including the 4-byte size prefix.
	Bytes int
}

// requestScanner follows client→broker frames across arbitrary chunk
// boundaries. It copies at most reqPrefixCap bytes of each frame.
type requestScanner struct {
	prefix    [reqPrefixCap]byte
	n         int   // bytes of prefix filled for the current frame
	size      int   // current frame length after the size prefix, once n >= 4
	remaining int   // bytes of the current frame body not yet seen
	last      int   // size of the last complete frame
	err       error // sticky: framing lost
}

// feed consumes p and calls done for every frame completed by it.
func (s *requestScanner) feed(p []byte, done func(requestInfo)) error {
	for len(p) > 0 && s.err == nil {
		if s.n < 4 {
			k := copy(s.prefix[s.n:4], p)
			s.n += k
			p = p[k:]
			if s.n < 4 {
				return nil
			}
			size := int32(binary.BigEndian.Uint32(s.prefix[:4]))
			if size < 8 || size > maxFrame {
				s.err = fmt.Errorf("%w: request size %d", errFraming, size)
				return s.err
			}
			s.size, s.remaining = int(size), int(size)
			continue
		}
		k := min(len(p), s.remaining)
		if s.n < len(s.prefix) {
			s.n += copy(s.prefix[s.n:], p[:k])
		}
		s.remaining -= k
		p = p[k:]
		if s.remaining == 0 {
			s.finish(done)
		}
	}
	return s.err
}

// finish reports the frame just completed and waits for the next one.
func (s *requestScanner) finish(done func(requestInfo)) {
	info := parseRequestHeader(s.prefix[4:s.n])
	info.Bytes = s.size + 4
	s.n, s.last = 0, s.size
	done(info)
}

// skippable is how many bytes of the current frame may pass without being
// fed: the rest of its body once the kept prefix is complete, else 0.
func (s *requestScanner) skippable() int {
	if s.err != nil || s.n < len(s.prefix) {
		return 0
	}
	return s.remaining
}

// skip accounts for n bytes (at most skippable) that passed without being
// fed, reporting the frame if they complete it.
func (s *requestScanner) skip(n int, done func(requestInfo)) {
	s.remaining -= n
	if s.remaining == 0 {
		s.finish(done)
	}
}

// parseRequestHeader reads api key, version and correlation id from a
// request header (b starts after the size prefix and holds at least 8 bytes)
// and, for produce, the acks field that follows the header, if b reaches it.
func parseRequestHeader(b []byte) requestInfo {
	info := requestInfo{
		Key:     int16(binary.BigEndian.Uint16(b[0:])),
		Version: int16(binary.BigEndian.Uint16(b[2:])),
		Corr:    int32(binary.BigEndian.Uint32(b[4:])),
	}
	if info.Key != apiProduce {
		return info
	}
	r := byteReader{b: b[8:]}
	// Request header v1/v2: client id is a nullable int16-length string even
	// in flexible versions.
	if l := r.int16(); l > 0 {
		r.skip(int(l))
	}
	flexible := info.Version >= 9
	if flexible {
		r.skipTags()
	}
	if info.Version >= 3 { // transactional id
		if flexible {
			if l := r.uvarint(); l > 0 {
				r.skip(int(l - 1))
			}
		} else if l := r.int16(); l > 0 {
			r.skip(int(l))
		}
	}
	acks := r.int16()
	if !r.bad {
		info.Acks, info.AcksKnown = acks, true
	}
	return info
}

// byteReader decodes Kafka primitives; any read past the end sets bad.
type byteReader struct {
	b   []byte
	bad bool
}

func (r *byteReader) skip(n int) {
	if r.bad || n < 0 || n > len(r.b) {
		r.bad = true
		return
	}
	r.b = r.b[n:]
}

func (r *byteReader) int16() int16 {
	if r.bad || len(r.b) < 2 {
		r.bad = true
		return 0
	}
	v := int16(binary.BigEndian.Uint16(r.b))
	r.b = r.b[2:]
	return v
}

func (r *byteReader) uvarint() uint64 {
	if r.bad {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.bad = true
		return 0
	}
	r.b = r.b[n:]
	return v
}

// skipTags skips a flexible-version tagged field section.
func (r *byteReader) skipTags() {
	n := r.uvarint()
	for i := uint64(0); i < n && !r.bad; i++ {
		r.uvarint() // tag
		r.skip(int(r.uvarint()))
	}
}

// respAction says what to do with a response frame, decided from the request
// it answers.
type respAction int

const (
	respPass    respAction = iota // forward unchanged
	respRewrite                   // buffer whole, rewrite broker addresses, forward
	respCut                       // swallow and close the client connection
)

// respSegment is a piece of output: a sub-slice of the chunk being scanned
// (from < to) or owned bytes.
type respSegment struct {
	from, to int
	owned    []byte
}

// respScanner follows broker→client frames. Unlike requests, it may change
// the stream: while a response may need rewriting or cutting, it holds back
// the 8-byte header (size, correlation id) of each frame until it is
// complete, so the decision to pass, rewrite or swallow the frame is taken
// before any of its bytes are forwarded. Otherwise bytes pass as they come.
type respScanner struct {
	hdr      [8]byte
	n        int  // bytes of hdr filled
	hdrStart int  // offset in the current chunk where hdr started, -1 if in an earlier chunk
	startOut int  // output offset of the frame's first byte, when hdrStart >= 0
	holding  bool // the header is held back (a response may need rewriting or cutting)

	remaining int // body bytes of the current frame still to come (pass or rewrite)
	action    respAction
	req       *pendingReq
	frame     []byte // respRewrite: the whole frame so far

	broken bool // framing lost: everything passes through untouched

	// Output of the last feed.
	segs   []respSegment
	marks  []mark
	outLen int // bytes of output the segments add up to so far
}

// respHooks connects the scanner to the connection: holdNeeded says whether
// any outstanding request has a response to rewrite or cut; lookup finds (and
// forgets) the request a correlation id answers; rewrite transforms a whole
// buffered frame.
type respHooks interface {
	holdNeeded() bool
	lookup(corr int32) (respAction, *pendingReq)
	rewrite(req *pendingReq, frame []byte) []byte
}

// feed scans p. It fills s.segs and s.marks (offsets into the output built
// from the segments) and returns the request whose response must be cut, if
// any, in which case the rest of p and the stream are discarded.
func (s *respScanner) feed(p []byte, h respHooks) (cut *pendingReq, err error) {
	s.segs, s.marks, s.outLen = s.segs[:0], s.marks[:0], 0
	s.hdrStart = -1
	if s.broken {
		s.emit(0, len(p))
		return nil, nil
	}
	pos := 0
	for pos < len(p) {
		if s.n < 8 {
			var complete bool
			if pos, complete = s.takeHeader(p, pos, h); !complete {
				return nil, nil // header incomplete
			}
			if cut, err := s.startFrame(p, pos, h); cut != nil || err != nil {
				return cut, err
			}
		}
		pos = s.takeBody(p, pos, h)
	}
	return nil, nil
}

// emit adds p[from:to] to the output, merging it with the previous segment
// when they are contiguous, so a chunk passed whole stays one segment.
func (s *respScanner) emit(from, to int) {
	if from == to {
		return
	}
	if n := len(s.segs); n > 0 && s.segs[n-1].owned == nil && s.segs[n-1].to == from {
		s.segs[n-1].to = to
	} else {
		s.segs = append(s.segs, respSegment{from: from, to: to})
	}
	s.outLen += to - from
}

// emitOwned adds bytes that are not part of the chunk (a held header copied
// from an earlier chunk, a rewritten frame) to the output.
func (s *respScanner) emitOwned(b []byte) {
	s.segs = append(s.segs, respSegment{owned: b})
	s.outLen += len(b)
}

// takeHeader copies the bytes of the frame header found at p[pos:] into
// s.hdr, forwarding them at once unless the header is held back, and returns
// the new position and whether the header is now complete. It decides about
// holding when a new header starts, since only then is it known whether any
// outstanding request needs its response rewritten or cut.
func (s *respScanner) takeHeader(p []byte, pos int, h respHooks) (int, bool) {
	if s.n == 0 {
		s.hdrStart, s.startOut = pos, s.outLen
		s.holding = h.holdNeeded()
	}
	k := copy(s.hdr[s.n:], p[pos:])
	if !s.holding {
		s.emit(pos, pos+k)
	}
	s.n += k
	pos += k
	return pos, s.n == 8
}

// startFrame decides, from a complete header ending at p[pos], what to do
// with the frame (pass, rewrite or cut), releases the held header if the
// frame passes, and records a mark for the request it answers. It returns
// the request to cut, or an error when the size is not a plausible frame, in
// which case framing is abandoned and the rest of p passes untouched.
func (s *respScanner) startFrame(p []byte, pos int, h respHooks) (cut *pendingReq, err error) {
	size := int32(binary.BigEndian.Uint32(s.hdr[:4]))
	if size < 4 || size > maxFrame {
		// Give up on framing; forward what we held and the rest.
		s.broken = true
		if s.holding {
			s.flushHeader(p, pos)
		}
		s.emit(pos, len(p))
		return nil, fmt.Errorf("%w: response size %d", errFraming, size)
	}
	s.remaining = int(size) - 4
	s.action, s.req = h.lookup(int32(binary.BigEndian.Uint32(s.hdr[4:])))
	if s.action == respCut {
		// Not holding is impossible: the request was registered
		// before the broker could answer it.
		return s.req, nil
	}
	if s.action == respRewrite && (!s.holding || int(size)+4 > maxRewriteFrame) {
		s.action = respPass
	}
	switch {
	case s.action == respRewrite:
		s.frame = append(make([]byte, 0, int(size)+4), s.hdr[:]...)
	case s.holding:
		if s.req != nil {
			s.marks = append(s.marks, mark{off: s.outLen, req: s.req})
		}
		s.flushHeader(p, pos)
	case s.req != nil:
		// The header went out as it came; if it started in an
		// earlier chunk, this chunk's start is the closest we know.
		off := 0
		if s.hdrStart >= 0 {
			off = s.startOut
		}
		s.marks = append(s.marks, mark{off: off, req: s.req})
	}
	return nil, nil
}

// takeBody forwards or buffers the body bytes of the current frame found at
// p[pos:] and returns the new position; when the frame ends, a buffered
// frame is rewritten and emitted and the scanner waits for the next header.
func (s *respScanner) takeBody(p []byte, pos int, h respHooks) int {
	k := min(len(p)-pos, s.remaining)
	switch s.action {
	case respPass:
		s.emit(pos, pos+k)
	case respRewrite:
		s.frame = append(s.frame, p[pos:pos+k]...)
	}
	pos += k
	s.remaining -= k
	if s.remaining == 0 {
		if s.action == respRewrite {
			s.emitOwned(h.rewrite(s.req, s.frame))
			s.frame = nil
		}
		s.n, s.req, s.action = 0, nil, respPass
	}
	return pos
}

// flushHeader emits the held-back header: straight from p when it started in
// this chunk, else as a copy.
func (s *respScanner) flushHeader(p []byte, pos int) {
	if s.hdrStart >= 0 {
		s.emit(s.hdrStart, pos)
		return
	}
	s.emitOwned(append([]byte(nil), s.hdr[:s.n]...))
}
