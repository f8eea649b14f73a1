package maven

import (
	"slices"
	"strconv"
	"strings"
)

// Version is a parsed release number as a repository lists it (see
// Versions): dot-separated numbers, optionally followed by "-" and a
// qualifier (4.0.0-rc1), which makes it a pre-release of those numbers.
// It is the one place prodlab orders releases, so that every "this
// release does not exist; these are near" message agrees.
type Version struct {
	text      string
	nums      []int
	qualifier string
}

// ParseVersion reads "MAJOR.MINOR[.MORE...][-QUALIFIER]", each number
// plain decimal digits; ok is false for anything else (a text is not a
// release number).
func ParseVersion(s string) (v Version, ok bool) {
	num, qual, hasQual := strings.Cut(s, "-")
	if hasQual && qual == "" {
		return Version{}, false
	}
	fields := strings.Split(num, ".")
	if len(fields) < 2 {
		return Version{}, false
	}
	v = Version{text: s, qualifier: qual}
	for _, f := range fields {
		if f == "" || strings.Trim(f, "0123456789") != "" {
			return Version{}, false
		}
		n, err := strconv.Atoi(f)
		if err != nil {
			return Version{}, false // too large to be a release number
		}
		v.nums = append(v.nums, n)
	}
	return v, true
}

// String is the version as it was written.
func (v Version) String() string { return v.text }

// Final reports whether v is a release rather than a pre-release.
func (v Version) Final() bool { return v.qualifier == "" }

// AtLeast reports whether v is at or after major.minor (any pre-release of
// major.minor counts).
func (v Version) AtLeast(major, minor int) bool {
	return slices.Compare(v.nums[:2], []int{major, minor}) >= 0
}

// sameLine reports whether v and o share their major.minor.
func (v Version) sameLine(o Version) bool {
	return slices.Equal(v.nums[:2], o.nums[:2])
}

// Compare orders versions numerically, part by part (4.9.0 before 4.10.0,
// 4.4 before 4.4.0), a pre-release before its release and pre-releases by
// their qualifiers' text; it returns <0, 0 or >0 like strings.Compare, and
// 0 only for the same text.
func (v Version) Compare(o Version) int {
	if c := slices.Compare(v.nums, o.nums); c != 0 {
		return c
	}
	switch {
	case v.Final() && !o.Final():
		return 1
	case !v.Final() && o.Final():
		return -1
	}
	if c := strings.Compare(v.qualifier, o.qualifier); c != 0 {
		return c
	}
	return strings.Compare(v.text, o.text) // 4.04 and 4.4: any fixed order
}

// Sorted parses versions (as Versions lists them), drops the ones that are
// not release numbers and returns the rest oldest first.
func Sorted(versions []string) []Version {
	var out []Version
	for _, s := range versions {
		if v, ok := ParseVersion(s); ok {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, Version.Compare)
	return out
}

// Nearest names, for a message about a release that does not exist, the
// releases among sorted (oldest first, as Sorted returns them) nearest to
// want: those of want's major.minor when there are any (a mistyped patch
// release), otherwise the one just before want and the one just after it,
// or the two closest when want is before the first or after the last.
func Nearest(sorted []Version, want Version) []string {
	var near []string
	for _, v := range sorted {
		if v.sameLine(want) {
			near = append(near, v.text)
		}
	}
	if len(near) > 0 || len(sorted) == 0 {
		return near
	}
	i, _ := slices.BinarySearchFunc(sorted, want, Version.Compare)
	lo, hi := max(i-1, 0), min(i+1, len(sorted))
	if hi-lo < 2 && len(sorted) >= 2 { // at an end: the two closest
		if i == 0 {
			hi = 2
		} else {
			lo = len(sorted) - 2
		}
	}
	for _, v := range sorted[lo:hi] {
		near = append(near, v.text)
	}
	return near
}
