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
	want, ok := maven.ParseVersion(version)
	if !ok {
		return &ReleaseError{Client: client, Problem: fmt.Sprintf("%q is not a kafka-clients release number", version)}
	}
	if !want.AtLeast(javaMinMajor, javaMinMinor) {
		return &ReleaseError{Client: client, Problem: fmt.Sprintf("kafka-clients %s is not supported: prodlab runs kafka-clients %d.%d and later%s",
			version, javaMinMajor, javaMinMinor, javaRange(ctx))}
	}
	if maven.Local(javaCacheKey(version), kafkaClientsGroup, kafkaClientsArtifact, version) {
		return nil
	}
	versions, listErr := maven.Versions(ctx, kafkaClientsGroup, kafkaClientsArtifact)
	if listErr == nil && !slices.Contains(versions, version) {
		return &ReleaseError{Client: client, Problem: fmt.Sprintf("kafka-clients %s does not exist in the Maven repository; %s",
			version, nearestJava(versions, want))}
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
	rs := supportedJava(versions)
	if len(rs) == 0 {
		return ""
	}
	return fmt.Sprintf(" (the repository has %s to %s)", rs[0], rs[len(rs)-1])
}

// supportedJava is the final releases among versions that prodlab
// supports, oldest first.
func supportedJava(versions []string) []maven.Version {
	return slices.DeleteFunc(maven.Sorted(versions), func(v maven.Version) bool {
		return !v.Final() || !v.AtLeast(javaMinMajor, javaMinMinor)
	})
}

// nearestJava names, for a kafka-clients release that does not exist, the
// supported releases nearest to want and the supported range.
func nearestJava(versions []string, want maven.Version) string {
	rs := supportedJava(versions)
	if len(rs) == 0 {
		return "it lists no supported release"
	}
	near := maven.Nearest(rs, want)
	names := "the nearest release is " + near[0]
	if len(near) > 1 {
		names = "the nearest releases are " + strings.Join(near[:len(near)-1], ", ") + " and " + near[len(near)-1]
	}
	return fmt.Sprintf("%s (supported: %s to %s)", names, rs[0], rs[len(rs)-1])
}
