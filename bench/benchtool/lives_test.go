package main

import (
	"slices"
	"testing"

	"github.com/prodlab/prodlab/internal/results"
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

// TestPooled numbers each run's lives after the runs before it: a run of
// two lives and a run of one give lives 0, 1 and 2.
func TestPooled(t *testing.T) {
	runs := [][]results.Record{
		{{Trial: 0, Life: 0}, {Trial: 0, Life: 1}},
		{{Trial: 0}},
	}
	var got []int
	for _, r := range pooled(runs, []int{0, 1}) {
		got = append(got, r.Life)
	}
	if !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("lives %v, want [0 1 2]", got)
	}
	if runs[0][1].Life != 1 {
		t.Errorf("pooled changed the runs it read: life %d", runs[0][1].Life)
	}
}
