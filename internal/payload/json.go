package payload

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"time"
)

// jsonGen writes order events as compact JSON objects of exactly size bytes:
//
//	{"seq":N,"id":"<16 hex digits>","ts":<unix ms>,"event":"<name>","payload":"<hex>"}
//
// seq makes every value unique, which audits and compression tests need: a
// repeated value would both hide duplicates and flatter compressors. id is a
// 64-bit hex identifier derived from (seed, seq), short enough that a whole
// event fits in 100 bytes; event is drawn from a few order
// event names; payload is random lowercase hex that pads the object to the
// requested size, compressible roughly as real identifiers and tokens are.
type jsonGen struct {
	size int
	seed uint64
	// now returns the event time in Unix milliseconds; a field so that tests
	// can pin it.
	now func() int64
}

// Literal parts of the JSON layout, in order.
const (
	jsonSeq     = `{"seq":`
	jsonID      = `,"id":"`
	jsonTS      = `","ts":`
	jsonEvent   = `,"event":"`
	jsonPayload = `","payload":"`
	jsonEnd     = `"}`
)

// Widths reserved for the variable parts when computing the minimum size.
const (
	seqWidth = 10 // sequence numbers stay below workload.records ≤ 1e9
	idWidth  = 16 // 64 bits in hex
	tsWidth  = 13 // Unix milliseconds until the year 2286
	maxTS    = 9_999_999_999_999
)

// orderEvents are the event names an order goes through.
var orderEvents = [...]string{
	"order_created",
	"order_paid",
	"order_packed",
	"order_shipped",
	"order_delivered",
	"order_cancelled",
	"order_refunded",
}

// MinJSONSize is the smallest record size the json payload accepts: the
// fixed layout with the widest sequence number, timestamp and event name and
// an empty padding field.
var MinJSONSize = func() int {
	n := len(jsonSeq) + seqWidth + len(jsonID) + idWidth + len(jsonTS) + tsWidth +
		len(jsonEvent) + len(jsonPayload) + len(jsonEnd)
	longest := 0
	for _, e := range orderEvents {
		longest = max(longest, len(e))
	}
	return n + longest
}()

// newJSON checks that size fits the fixed layout.
func newJSON(size int, seed int64) (*jsonGen, error) {
	if size < MinJSONSize {
		return nil, fmt.Errorf("payload json: record size %d is too small: the JSON order event needs at least %d bytes", size, MinJSONSize)
	}
	return &jsonGen{size: size, seed: uint64(seed), now: func() int64 { return time.Now().UnixMilli() }}, nil
}

// hexDigits are the digits of lowercase hexadecimal.
const hexDigits = "0123456789abcdef"

// Next implements Generator.
func (g *jsonGen) Next(seq int64, buf []byte) []byte {
	if cap(buf) < g.size {
		buf = make([]byte, 0, g.size)
	}
	r := recordRNG(g.seed, seq)
	b := buf[:0]
	b = append(b, jsonSeq...)
	b = strconv.AppendInt(b, seq, 10)
	b = append(b, jsonID...)
	b = appendHexBits(b, r.next(), idWidth)
	b = append(b, jsonTS...)
	b = strconv.AppendInt(b, min(max(g.now(), 0), maxTS), 10)
	b = append(b, jsonEvent...)
	b = append(b, orderEvents[r.next()%uint64(len(orderEvents))]...)
	b = append(b, jsonPayload...)
	// MinJSONSize reserves the widest variable parts, so pad is never
	// negative for sequence numbers of up to 10 digits.
	pad := max(g.size-len(b)-len(jsonEnd), 0)
	b = b[:len(b)+pad]
	fillHex(b[len(b)-pad:], &r)
	return append(b, jsonEnd...)
}

// appendHexBits appends the low n hex digits of v, most significant first.
func appendHexBits(b []byte, v uint64, n int) []byte {
	for i := n - 1; i >= 0; i-- {
		b = append(b, hexDigits[(v>>(4*uint(i)))&15])
	}
	return b
}

// fillHex fills dst with random lowercase hex digits, eight at a time.
func fillHex(dst []byte, r *rng) {
	i := 0
	for ; i+16 <= len(dst); i += 16 {
		v := r.next()
		binary.LittleEndian.PutUint64(dst[i:], hex8(uint32(v)))
		binary.LittleEndian.PutUint64(dst[i+8:], hex8(uint32(v>>32)))
	}
	if i < len(dst) {
		v := r.next()
		for ; i < len(dst); i++ {
			dst[i] = hexDigits[v&15]
			v >>= 4
		}
	}
}

// hex8 returns the eight nibbles of x as hex digits packed in the bytes of
// a uint64 (lowest nibble in the lowest byte), without branches or table
// lookups: padding is most of a json value, so this is its hot loop.
func hex8(x uint32) uint64 {
	const (
		lo4   = 0x0f0f0f0f0f0f0f0f
		ones  = 0x0101010101010101
		ascii = 0x3030303030303030 // '0' in every byte
	)
	// Spread the nibbles into bytes.
	v := uint64(x)
	v = (v | v<<16) & 0x0000ffff0000ffff
	v = (v | v<<8) & 0x00ff00ff00ff00ff
	v = (v | v<<4) & lo4
	// Bytes 10-15 must skip from after '9' to 'a': 'a'-'0'-10 = 39.
	letters := ((v + 6*ones) >> 4) & ones
	return v + ascii + letters*39
}
