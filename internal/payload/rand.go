package payload

import "math/bits"

// rng is a small, fast, non-cryptographic PRNG (the wyrand construction:
// a Weyl sequence finalised by a 128-bit multiply). Values only need to look
// random to compressors and brokers; speed matters because the producer calls
// generators millions of times a second.
type rng struct{ s uint64 }

// Constants of the wyrand construction.
const (
	wyP0 = 0xa0761d6478bd642f
	wyP1 = 0xe7037ed1a0b428db
)

// next returns the next 64 random bits.
func (r *rng) next() uint64 {
	r.s += wyP0
	hi, lo := bits.Mul64(r.s, r.s^wyP1)
	return hi ^ lo
}

// mix64 is the splitmix64 finaliser: a bijection on uint64 that scatters
// nearby inputs (consecutive record numbers) across the whole range.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// recordRNG returns the PRNG for one record, so that a value depends only on
// (seed, seq) and not on which records were generated before it.
func recordRNG(seed uint64, seq int64) rng {
	return rng{s: mix64(seed^mix64(uint64(seq)+wyP1)) ^ seed}
}
