package driver

import (
	"context"
	"errors"
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
