package driver

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
)

// ReleaseError is a client name whose release cannot be run: it does not
// exist or prodlab does not support it. It is the user's input to fix
// (exit code 2), unlike a repository that cannot be reached.
type ReleaseError struct {
	Client  string // the client name as written, e.g. "java@99.1"
	Problem string // what is wrong and what exists instead
}

func (e *ReleaseError) Error() string { return "client " + e.Client + ": " + e.Problem }

// Resolve checks a client name before anything starts: it must parse and,
// for a versioned kind, name a release that exists (in the local caches or
// the Maven repository) and that prodlab supports; the release is then
// resolved into the cache, so the run starts without waiting for Maven.
// A release that does not exist or is not supported is a *ReleaseError
// naming the nearest releases that do.
func Resolve(ctx context.Context, client string) error {
	c, k, err := lookup(client)
	if err != nil {
		return err
	}
	if c.Version == "" || k.resolve == nil {
		return nil // follows the brokers' release, which the cluster checks
	}
	return k.resolve(ctx, client, c.Version)
}

// ResolveAll resolves each distinct client name once and joins the
// problems, one per name in the order the names first appear, so that a
// bad release used by many scenarios is reported once.
func ResolveAll(ctx context.Context, clients []string) error {
	var errs []error
	seen := map[string]bool{}
	for _, c := range clients {
		if seen[c] {
			continue
		}
		seen[c] = true
		if err := Resolve(ctx, c); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// release is a parsed release number: numeric parts, and whether it has a
// qualifier (4.1.0-rc1), which makes it a pre-release.
type release struct {
	text  string
	parts []int
	pre   bool
}

// parseRelease reads "MAJOR.MINOR[.PATCH][-QUALIFIER]"; ok is false for
// anything else.
func parseRelease(s string) (release, bool) {
	num, qual, _ := strings.Cut(s, "-")
	fields := strings.Split(num, ".")
	if len(fields) < 2 || len(fields) > 3 {
		return release{}, false
	}
	r := release{text: s, pre: qual != ""}
	for _, f := range fields {
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return release{}, false
		}
		r.parts = append(r.parts, n)
	}
	return r, true
}

// compare orders releases numerically (4.4 before 4.4.0, a pre-release
// before its release).
func (r release) compare(o release) int {
	if c := slices.Compare(r.parts, o.parts); c != 0 {
		return c
	}
	switch {
	case r.pre == o.pre:
		return strings.Compare(r.text, o.text)
	case r.pre:
		return -1
	default:
		return 1
	}
}

// atLeast reports whether r is at or after major.minor.
func (r release) atLeast(major, minor int) bool {
	return slices.Compare(r.parts[:2], []int{major, minor}) >= 0
}

// releases parses, keeps the final releases at or after major.minor, and
// sorts them.
func releases(versions []string, major, minor int) []release {
	var out []release
	for _, v := range versions {
		if r, ok := parseRelease(v); ok && !r.pre && r.atLeast(major, minor) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, release.compare)
	return out
}

// nearest names the releases either side of want among sorted rs: the one
// just before and the one just after (or the two closest at an end).
func nearest(rs []release, want release) []string {
	if len(rs) == 0 {
		return nil
	}
	i, _ := slices.BinarySearchFunc(rs, want, release.compare)
	lo, hi := max(i-1, 0), min(i+1, len(rs))
	if hi-lo < 2 && len(rs) >= 2 { // at an end: the two closest
		if i == 0 {
			hi = 2
		} else {
			lo = len(rs) - 2
		}
	}
	var out []string
	for _, r := range rs[lo:hi] {
		out = append(out, r.text)
	}
	return out
}
