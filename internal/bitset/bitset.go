// Package bitset is a set of sequence numbers, one bit each, so that
// remembering n records costs n/8 bytes rather than something per record.
// The driver's AckLog (acknowledged and failed records) and the audit's
// checker (records read back) both keep their sets in it. It imports
// nothing of prodlab.
package bitset

// Set holds non-negative integers below Len, one bit each. Its zero value
// (nil) is an empty set of length 0; Grow extends it. A Set is not safe for
// concurrent use.
type Set []uint64

// New returns an empty set able to hold [0, n).
func New(n int64) Set {
	if n <= 0 {
		return nil
	}
	return make(Set, (n+63)/64)
}

// Len is the number of integers the set can hold: [0, Len) is a multiple
// of 64 at least the n it was made or grown for.
func (s Set) Len() int64 { return int64(len(s)) * 64 }

// Has reports whether i is in the set; i outside [0, Len) never is.
func (s Set) Has(i int64) bool {
	return uint64(i) < uint64(len(s))*64 && s[i>>6]&(1<<(uint64(i)&63)) != 0
}

// Add puts i in the set; i must be in [0, Len).
func (s Set) Add(i int64) { s[i>>6] |= 1 << (uint64(i) & 63) }

// Remove takes i out of the set; i must be in [0, Len).
func (s Set) Remove(i int64) { s[i>>6] &^= 1 << (uint64(i) & 63) }

// Grow makes the set able to hold i, keeping its members. When it has to
// grow it at least doubles (and takes at least 16 words), so a set filled
// in order costs amortised O(1) per member. A negative i is ignored.
func (s *Set) Grow(i int64) {
	if i < 0 {
		return
	}
	need := int(i/64) + 1
	if need <= len(*s) {
		return
	}
	t := make(Set, max(need, 2*len(*s), 16))
	copy(t, *s)
	*s = t
}
