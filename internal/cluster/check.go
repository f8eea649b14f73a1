package cluster

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/maven"
)

// The broker's artifact on Maven Central, whose releases checkRelease
// lists to tell a missing release from a broken one.
const (
	kafkaGroup    = "org.apache.kafka"
	kafkaArtifact = "kafka_2.13"
)

// CheckKafka checks, before anything starts, that kafka ("" for
// DefaultKafka) is something an embedded cluster can run: a release whose
// broker and all its dependencies resolve from Maven Central (resolved
// into the cache now, so Start later finds them there), or a local Kafka
// distribution: a directory whose libs/ holds a broker jar. Its error says
// what is wrong and, for a release Maven Central does not have, which
// releases are near.
func CheckKafka(ctx context.Context, kafka string) error {
	if kafka == "" {
		kafka = DefaultKafka
	}
	if isRelease(kafka) {
		return checkRelease(ctx, kafka)
	}
	return checkDistribution(kafka)
}

// CheckKafkas runs CheckKafka once per distinct Kafka of a run ("" counts
// as DefaultKafka) and joins the problems, one per distinct Kafka, in the
// order given.
func CheckKafkas(ctx context.Context, kafkas ...string) error {
	var seen []string
	var errs []error
	for _, k := range kafkas {
		if k == "" {
			k = DefaultKafka
		}
		if slices.Contains(seen, k) {
			continue
		}
		seen = append(seen, k)
		errs = append(errs, CheckKafka(ctx, k))
	}
	return errors.Join(errs...)
}

// resolveRelease finds a release's jars; tests replace it to stay off the
// network.
var resolveRelease = resolveDist

// checkRelease resolves release; when that fails it asks Maven Central
// which releases exist, to tell a missing release from a broken one.
func checkRelease(ctx context.Context, release string) error {
	_, err := resolveRelease(ctx, release)
	if err == nil {
		return nil
	}
	versions, listErr := maven.Versions(ctx, kafkaGroup, kafkaArtifact)
	switch {
	case listErr != nil:
		return fmt.Errorf("kafka %s: %w\n(could not list the releases on Maven Central either: %w)", release, err, listErr)
	case !slices.Contains(versions, release):
		return fmt.Errorf("kafka %s: Maven Central has no such Kafka release; %s", release, nearReleases(versions, release))
	default:
		return fmt.Errorf("kafka %s is released, but its broker does not resolve from Maven Central with all its dependencies: %w", release, err)
	}
}

// checkDistribution checks that dir is a Kafka distribution: a directory
// whose libs/ holds jars, among them the broker's (kafka_2.*-VERSION.jar).
func checkDistribution(dir string) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("kafka %s: neither a release version like %s nor an existing directory", dir, DefaultKafka)
	case err != nil:
		return fmt.Errorf("kafka distribution %s: %w", dir, err)
	case !st.IsDir():
		return fmt.Errorf("kafka %s: a file, not a Kafka distribution directory", dir)
	}
	libs := filepath.Join(dir, "libs")
	if st, err := os.Stat(libs); err != nil || !st.IsDir() {
		return fmt.Errorf("kafka distribution %s: no libs/ directory; want an unpacked Kafka distribution (kafka_2.13-VERSION.tgz)", dir)
	}
	if jars, _ := filepath.Glob(filepath.Join(libs, "*.jar")); len(jars) == 0 {
		return fmt.Errorf("kafka distribution %s: libs/ holds no jars", dir)
	}
	if versionFromJars(libs) == "" {
		return fmt.Errorf("kafka distribution %s: libs/ holds no Kafka broker jar (kafka_2.13-VERSION.jar)", dir)
	}
	return nil
}

// nearReleases names the releases near want among versions (see
// maven.Nearest), and the newest.
func nearReleases(versions []string, want string) string {
	rs := maven.Sorted(versions)
	w, ok := maven.ParseVersion(want)
	if len(rs) == 0 || !ok {
		return "it lists no releases at all"
	}
	return fmt.Sprintf("releases near it: %s; the newest is %s", strings.Join(maven.Nearest(rs, w), ", "), rs[len(rs)-1])
}
