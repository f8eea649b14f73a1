package audit

// bitset is a fixed-size set of sequence numbers [0, n), one bit each, so
// the audit's memory grows by n/8 bytes rather than per record.
type bitset []uint64

// newBitset returns an empty set able to hold [0, n).
func newBitset(n int64) bitset {
	if n <= 0 {
		return nil
	}
	return make(bitset, (n+63)/64)
}

// has reports whether i is in the set; i must be in [0, n).
func (b bitset) has(i int64) bool { return b[i>>6]&(1<<(uint64(i)&63)) != 0 }

// add puts i in the set; i must be in [0, n).
func (b bitset) add(i int64) { b[i>>6] |= 1 << (uint64(i) & 63) }

// clear removes i from the set; i must be in [0, n).
func (b bitset) clear(i int64) { b[i>>6] &^= 1 << (uint64(i) & 63) }
