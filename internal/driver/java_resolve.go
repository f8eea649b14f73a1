package driver

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/maven"
)

// The Java client's releases: where they come from and which prodlab runs.
const (
	kafkaClientsGroup    = "org.apache.kafka"
	kafkaClientsArtifact = "kafka-clients"
	// javaMinMajor.javaMinMinor is the oldest kafka-clients line the worker
	// supports (its oldest tested release is 3.0.2: java_versions_test.go).
	javaMinMajor, javaMinMinor = 3, 0
)

// javaCacheKey is the maven cache key of a kafka-clients release (shared
// with NewJava, so that a resolved release starts without Maven).
func javaCacheKey(version string) string { return "kafka-clients-" + version }

// resolveJava checks that kafka-clients version exists and is supported,
// then resolves it into the cache. client is the name as written.
func resolveJava(ctx context.Context, client, version string) error {
	want, ok := parseRelease(version)
	if !ok {
		return &ReleaseError{Client: client, Problem: fmt.Sprintf("%q is not a kafka-clients release number", version)}
	}
	if !want.atLeast(javaMinMajor, javaMinMinor) {
		return &ReleaseError{Client: client, Problem: fmt.Sprintf("kafka-clients %s is not supported: prodlab runs kafka-clients %d.%d and later%s",
			version, javaMinMajor, javaMinMinor, javaRange(ctx))}
	}
	if maven.Local(javaCacheKey(version), kafkaClientsGroup, kafkaClientsArtifact, version) {
		return nil
	}
	versions, listErr := maven.Versions(ctx, kafkaClientsGroup, kafkaClientsArtifact)
	if listErr == nil && !slices.Contains(versions, version) {
		rs := releases(versions, javaMinMajor, javaMinMinor)
		return &ReleaseError{Client: client, Problem: fmt.Sprintf("kafka-clients %s does not exist in the Maven repository; the nearest releases are %s (supported: %s to %s)",
			version, strings.Join(nearest(rs, want), " and "), rs[0].text, rs[len(rs)-1].text)}
	}
	coord := kafkaClientsGroup + ":" + kafkaClientsArtifact + ":" + version
	if _, err := maven.Resolve(ctx, javaCacheKey(version), coord); err != nil {
		if listErr != nil {
			return fmt.Errorf("client %s: resolve kafka-clients %s: %w (and the release list could not be read: %w)", client, version, err, listErr)
		}
		return fmt.Errorf("client %s: resolve kafka-clients %s: %w", client, version, err)
	}
	return nil
}

// javaRange is ", from A to B on Maven" for messages, "" when the release
// list cannot be read.
func javaRange(ctx context.Context) string {
	versions, err := maven.Versions(ctx, kafkaClientsGroup, kafkaClientsArtifact)
	if err != nil {
		return ""
	}
	rs := releases(versions, javaMinMajor, javaMinMinor)
	if len(rs) == 0 {
		return ""
	}
	return fmt.Sprintf(" (the repository has %s to %s)", rs[0].text, rs[len(rs)-1].text)
}
