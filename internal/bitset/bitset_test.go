package bitset

import (
	"math"
	"testing"
)

// TestBitset: members are kept apart from their neighbours and across word
// boundaries, and nothing outside [0, Len) is ever a member.
func TestBitset(t *testing.T) {
	for _, n := range []int64{-1, 0, 1, 63, 64, 65, 1000} {
		s := New(n)
		if want := max(n+63, 0) / 64 * 64; s.Len() != want {
			t.Errorf("New(%d).Len() = %d, want %d", n, s.Len(), want)
		}
		for _, i := range []int64{-1, 0, n - 1, n, s.Len(), math.MaxInt64, math.MinInt64} {
			if s.Has(i) {
				t.Errorf("New(%d).Has(%d) on an empty set", n, i)
			}
		}
	}

	s := New(200)
	members := []int64{0, 1, 63, 64, 127, 128, 199}
	for _, i := range members {
		s.Add(i)
	}
	s.Add(64) // adding twice is harmless
	in := map[int64]bool{}
	for _, i := range members {
		in[i] = true
	}
	for i := int64(-2); i < s.Len()+2; i++ {
		if s.Has(i) != in[i] {
			t.Errorf("Has(%d) = %v, want %v", i, s.Has(i), in[i])
		}
	}

	s.Remove(64)
	s.Remove(65) // removing a non-member is harmless
	if s.Has(64) || !s.Has(63) || !s.Has(127) {
		t.Errorf("after Remove(64): Has(63)=%v Has(64)=%v Has(127)=%v, want true false true", s.Has(63), s.Has(64), s.Has(127))
	}
}

// TestBitsetGrow: Grow covers the integer asked for, keeps the members,
// doubles (from at least 16 words) and ignores what already fits.
func TestBitsetGrow(t *testing.T) {
	var s Set
	s.Grow(-1)
	if s.Len() != 0 {
		t.Errorf("Grow(-1) on nil: Len %d, want 0", s.Len())
	}
	s.Grow(0)
	if s.Len() != 16*64 {
		t.Errorf("Grow(0) on nil: Len %d, want %d (16 words)", s.Len(), 16*64)
	}
	s.Add(5)
	s.Add(1023)
	s.Grow(1024)
	if s.Len() != 32*64 {
		t.Errorf("Grow(1024) from 16 words: Len %d, want %d (doubled)", s.Len(), 32*64)
	}
	s.Grow(100_000)
	if want := int64(100_000/64+1) * 64; s.Len() != want {
		t.Errorf("Grow(100000) from 32 words: Len %d, want %d (just enough)", s.Len(), want)
	}
	before := s.Len()
	s.Grow(before - 1)
	if s.Len() != before {
		t.Errorf("Grow(%d) within the set: Len %d, want %d", before-1, s.Len(), before)
	}
	s.Add(100_000)
	for _, i := range []int64{5, 1023, 100_000} {
		if !s.Has(i) {
			t.Errorf("member %d lost by Grow", i)
		}
	}
	if s.Has(6) || s.Has(1024) {
		t.Error("Grow added members")
	}
}
