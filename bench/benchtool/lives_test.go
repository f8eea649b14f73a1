package main

import (
	"slices"
	"testing"
)

// TestSubsets lists every k-subset once, in lexical order, up to the
// limit, and complement leaves each subset's members out.
func TestSubsets(t *testing.T) {
	got := subsets(4, 2, 100)
	want := [][]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}
	if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
		t.Errorf("subsets(4, 2) = %v, want %v", got, want)
	}
	if got := subsets(5, 3, 4); len(got) != 4 {
		t.Errorf("subsets(5, 3, limit 4) gave %d, want 4", len(got))
	}
	if got := complement(5, []int{1, 3}); !slices.Equal(got, []int{0, 2, 4}) {
		t.Errorf("complement = %v, want [0 2 4]", got)
	}
}
