package maven

import (
	"slices"
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{
		{"4.4.0", true},
		{"4.4", true},       // a client name may omit the patch
		{"0.10.2.1", true},  // Kafka's old four-part releases
		{"4.0.0-rc1", true}, // a pre-release
		{"4", false},        // no minor
		{"4.x.0", false},    // not a number
		{"4..0", false},     // empty part
		{"+4.0", false},     // a sign is not a digit
		{"4.0.0-", false},   // empty qualifier
		{"", false},
		{"bogus", false},
	} {
		if _, ok := ParseVersion(tc.in); ok != tc.ok {
			t.Errorf("ParseVersion(%q) ok = %v, want %v", tc.in, ok, tc.ok)
		}
	}
}

func TestVersionCompare(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int // sign
	}{
		{"4.10.0", "4.9.0", 1},         // numerically, not as text
		{"3.9.1", "4.0.0", -1},         // major first
		{"4.4", "4.4.0", -1},           // fewer parts first
		{"4.0.0-rc1", "4.0.0", -1},     // a pre-release before its release
		{"4.0.0-rc1", "3.9.1", 1},      // but after the release before
		{"4.0.0-rc1", "4.0.0-rc2", -1}, // pre-releases by qualifier
		{"4.0.0", "4.0.0", 0},
		{"4.04", "4.4", -1}, // same numbers: a fixed order by text
	} {
		a, _ := ParseVersion(tc.a)
		b, _ := ParseVersion(tc.b)
		got, back := a.Compare(b), b.Compare(a)
		if sign(got) != tc.want || sign(back) != -tc.want {
			t.Errorf("Compare(%s, %s) = %d and back %d, want sign %d", tc.a, tc.b, got, back, tc.want)
		}
	}
}

func TestVersionFinalAndAtLeast(t *testing.T) {
	for _, tc := range []struct {
		in             string
		final, atLeast bool // AtLeast(3, 0)
	}{
		{"3.0.2", true, true},
		{"2.8.1", true, false},
		{"3.0.0-rc1", false, true},
		{"10.0", true, true},
	} {
		v, _ := ParseVersion(tc.in)
		if v.Final() != tc.final || v.AtLeast(3, 0) != tc.atLeast {
			t.Errorf("%s: Final %v, AtLeast(3, 0) %v; want %v, %v", tc.in, v.Final(), v.AtLeast(3, 0), tc.final, tc.atLeast)
		}
	}
}

func TestSorted(t *testing.T) {
	got := texts(Sorted([]string{"4.4.0", "3.0.2", "bogus", "4.10.0", "4.0.0-rc1", "2.8.1", "4.0.0"}))
	if want := []string{"2.8.1", "3.0.2", "4.0.0-rc1", "4.0.0", "4.4.0", "4.10.0"}; !slices.Equal(got, want) {
		t.Fatalf("Sorted = %v, want %v (oldest first, what does not parse dropped)", got, want)
	}
	if got := Sorted(nil); len(got) != 0 {
		t.Errorf("Sorted(nil) = %v", got)
	}
}

func TestNearest(t *testing.T) {
	listed := Sorted([]string{"3.0.2", "3.9.0", "3.9.1", "4.0.0", "4.3.0", "4.3.1", "4.4.0"})
	for _, tc := range []struct {
		name, want string
		among      []Version
		near       string
	}{
		{"mistyped patch: its line", "4.3.7", listed, "4.3.0 4.3.1"},
		{"missing patch of a listed line", "4.4", listed, "4.4.0"},
		{"between lines: either side", "4.1.0", listed, "4.0.0 4.3.0"},
		{"between lines, earlier", "3.5.9", listed, "3.0.2 3.9.0"},
		{"before the first: the two first", "2.0.0", listed, "3.0.2 3.9.0"},
		{"after the last: the two last", "99.1", listed, "4.3.1 4.4.0"},
		{"one listed", "99.0.0", Sorted([]string{"4.4.0"}), "4.4.0"},
		{"none listed", "4.4.0", nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, ok := ParseVersion(tc.want)
			if !ok {
				t.Fatalf("bad test version %q", tc.want)
			}
			if got := strings.Join(Nearest(tc.among, want), " "); got != tc.near {
				t.Errorf("Nearest(%s) = %q, want %q", tc.want, got, tc.near)
			}
		})
	}
}

// texts is the versions as written.
func texts(vs []Version) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

// sign is -1, 0 or 1 as n is negative, zero or positive.
func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}
