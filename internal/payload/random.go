package payload

import "encoding/binary"

// randomGen fills values with random bytes: the incompressible extreme, for
// measuring a producer without help from compression.
type randomGen struct {
	size int
	seed uint64
}

// Next implements Generator.
func (g *randomGen) Next(seq int64, buf []byte) []byte {
	buf = resize(buf, g.size)
	r := recordRNG(g.seed, seq)
	i := 0
	for ; i+8 <= len(buf); i += 8 {
		binary.LittleEndian.PutUint64(buf[i:], r.next())
	}
	if i < len(buf) {
		v := r.next()
		for ; i < len(buf); i++ {
			buf[i] = byte(v)
			v >>= 8
		}
	}
	return buf
}
