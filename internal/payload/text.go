package payload

import "math/bits"

// textGen fills values with uniformly random uppercase letters A–Z, the
// values kafka-producer-perf-test sends with --record-size, so results
// compare with numbers users already have (same size and compressibility,
// about 4.7 bits of entropy per byte). Unlike perf-test, which sends one
// value over and over (and so flatters compression), every record gets
// different letters.
//
// Drawing letters costs about a nanosecond each, which at a producer's
// hundreds of MB/s took a quarter of prodlab's CPU. So the letters are drawn
// once, into a pool of textPoolBytes, and record seq copies window seq mod
// n of it: consecutive records take disjoint windows, so no batch smaller
// than the pool holds two copies of the same letters, and a value still
// depends only on (seed, seq).
type textGen struct {
	size int
	pool []byte // n windows of size letters, back to back
	n    int64
}

// textPoolBytes is the pool's size: far above any batch a producer sends
// (max.request.size defaults to 1 MiB), so compressors never see a repeat.
const textPoolBytes = 16 << 20

// lettersPerDraw is how many letters one 64-bit draw yields. Each letter
// consumes log2(26) ≈ 4.7 bits of the draw's fraction, so 8 letters use
// about 38 of its 64 bits and the bias left is far below 2^-20.
const lettersPerDraw = 8

func newText(size int, seed uint64) *textGen {
	n := max(1, textPoolBytes/size)
	g := &textGen{size: size, pool: make([]byte, n*size), n: int64(n)}
	r := rng{s: mix64(seed ^ wyP1)}
	for i := 0; i < len(g.pool); {
		// Read the draw as a binary fraction in [0,1) and peel off base-26
		// digits: multiplying by 26 moves the next digit into the high word.
		frac := r.next()
		k := min(lettersPerDraw, len(g.pool)-i)
		for j := 0; j < k; j++ {
			var d uint64
			d, frac = bits.Mul64(frac, 26)
			g.pool[i+j] = 'A' + byte(d)
		}
		i += k
	}
	return g
}

// Next implements Generator.
func (g *textGen) Next(seq int64, buf []byte) []byte {
	buf = resize(buf, g.size)
	copy(buf, g.View(seq))
	return buf
}

// View implements Viewer: record seq's window of the pool.
func (g *textGen) View(seq int64) []byte {
	off := int(seq%g.n) * g.size
	return g.pool[off : off+g.size : off+g.size]
}
