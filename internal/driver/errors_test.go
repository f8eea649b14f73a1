package driver

import "testing"

func TestTopErrors(t *testing.T) {
	cases := []struct {
		name string
		errs map[string]int64
		n    int
		want string
	}{
		// no failures, no text
		{"empty", nil, 3, ""},
		// most frequent first
		{"by count", map[string]int64{"a": 1, "b": 5, "c": 2}, 3, "5x b; 2x c; 1x a"},
		// ties by message, so map order never shows
		{"ties", map[string]int64{"z": 2, "y": 2, "x": 2, "w": 9}, 3, "9x w; 2x x; 2x y"},
		// at most n
		{"cut", map[string]int64{"a": 1, "b": 2}, 1, "2x b"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for range 20 { // map order varies between iterations
				if got := TopErrors(tc.errs, tc.n); got != tc.want {
					t.Fatalf("TopErrors = %q, want %q", got, tc.want)
				}
			}
		})
	}
}
