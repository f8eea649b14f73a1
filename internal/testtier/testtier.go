// Package testtier sorts the integration tests into two tiers so that
// `make test` can run the ones that only check behaviour side by side
// while the ones that judge timings or measured figures get the machine
// to themselves. Only tests import it.
//
// PRODLAB_TEST_TIER selects a tier: "quiet" runs the tests marked Quiet
// (and unmarked ones), "shared" runs the tests marked Shared (and unmarked
// ones), in parallel with each other; unset runs both, the quiet ones
// first. Unmarked tests run in both tiers, so a test that starts a broker,
// a JVM, Trogdor or a browser should be marked one way or the other.
package testtier

import (
	"os"
	"testing"
)

// Env is the environment variable that selects a tier.
const Env = "PRODLAB_TEST_TIER"

// Tier names, the values Env takes.
const (
	QuietTier  = "quiet"
	SharedTier = "shared"
)

// Quiet marks a test whose assertions depend on timings or measured
// figures (a verdict, a rate, a window's start): it needs the cores to
// itself, so it is skipped in the shared tier and never runs in parallel.
func Quiet(t testing.TB) {
	t.Helper()
	if tier(t) == SharedTier {
		t.Skipf("judges timings or measured figures: runs in the quiet tier (%s=%s)", Env, QuietTier)
	}
}

// ParallelTB is what Shared needs of a test: *testing.T.
type ParallelTB interface {
	testing.TB
	Parallel()
}

// Shared marks a test that checks behaviour only (records delivered,
// audits, errors, processes): it is skipped in the quiet tier and
// otherwise runs in parallel with the other shared tests.
func Shared(t ParallelTB) {
	t.Helper()
	if tier(t) == QuietTier {
		t.Skipf("checks behaviour only: runs in the shared tier (%s=%s)", Env, SharedTier)
	}
	t.Parallel()
}

// tier returns the selected tier, failing the test on a value that names
// none (a typo would otherwise run both tiers twice).
func tier(t testing.TB) string {
	t.Helper()
	v := os.Getenv(Env)
	switch v {
	case "", QuietTier, SharedTier:
		return v
	}
	t.Fatalf("%s=%q: want %q, %q or unset", Env, v, QuietTier, SharedTier)
	return ""
}
