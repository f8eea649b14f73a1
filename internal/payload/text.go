package payload

import "math/bits"

// textGen fills values with uniformly random uppercase letters A–Z, the
// values kafka-producer-perf-test sends with --record-size, so results
// compare with numbers users already have (same size and compressibility,
// about 4.7 bits of entropy per byte).
type textGen struct {
	size int
	seed uint64
}

// lettersPerDraw is how many letters one 64-bit draw yields. Each letter
// consumes log2(26) ≈ 4.7 bits of the draw's fraction, so 8 letters use
// about 38 of its 64 bits and the bias left is far below 2^-20.
const lettersPerDraw = 8

// Next implements Generator.
func (g *textGen) Next(seq int64, buf []byte) []byte {
	buf = resize(buf, g.size)
	r := recordRNG(g.seed, seq)
	for i := 0; i < len(buf); {
		// Read the draw as a binary fraction in [0,1) and peel off base-26
		// digits: multiplying by 26 moves the next digit into the high word.
		frac := r.next()
		n := min(lettersPerDraw, len(buf)-i)
		for j := 0; j < n; j++ {
			var d uint64
			d, frac = bits.Mul64(frac, 26)
			buf[i+j] = 'A' + byte(d)
		}
		i += n
	}
	return buf
}
