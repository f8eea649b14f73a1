// Package letters is the bare loops' values (bench/kgoloop, bench/rdkloop):
// random A–Z letters, each record its own window of a 16 MiB pool, as
// prodlab's text payload sends them, drawn as bench/rdkcloop draws them,
// so that every baseline pays the same for its pool. It shares no code
// with prodlab: a baseline must not.
package letters

// PoolBytes is the pool's size, as prodlab's text payload's.
const PoolBytes = 16 << 20

// Windows draws the pool (xorshift64*) and returns record i's value:
// window i mod n of size letters, read-only.
func Windows(size int) func(i int64) []byte {
	n := max(1, PoolBytes/size)
	pool := make([]byte, n*size)
	x := uint64(0x9E3779B97F4A7C15)
	for i := range pool {
		x ^= x >> 12
		x ^= x << 25
		x ^= x >> 27
		pool[i] = byte('A' + (x*0x2545F4914F6CDD1D>>32)%26)
	}
	return func(i int64) []byte {
		off := int(i%int64(n)) * size
		return pool[off : off+size : off+size]
	}
}
