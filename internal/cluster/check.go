package cluster

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
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
	versions, listErr := listReleases(ctx)
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

// releasesURL lists the broker's releases on Maven Central; tests point it
// at a local server.
var releasesURL = "https://repo1.maven.org/maven2/org/apache/kafka/kafka_2.13/maven-metadata.xml"

// releasesTimeout bounds listReleases.
const releasesTimeout = 10 * time.Second

// listReleases returns the versions of the Kafka broker on Maven Central,
// as its maven-metadata.xml lists them.
func listReleases(ctx context.Context) ([]string, error) {
	ctx, cancel := context.WithTimeout(ctx, releasesTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, releasesURL, nil)
	if err != nil {
		return nil, fmt.Errorf("list kafka releases: %w", err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("list kafka releases: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("list kafka releases: %s: %s", releasesURL, resp.Status)
	}
	var meta struct {
		Versions []string `xml:"versioning>versions>version"`
	}
	if err := xml.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&meta); err != nil {
		return nil, fmt.Errorf("list kafka releases: read %s: %w", releasesURL, err)
	}
	return meta.Versions, nil
}

// nearReleases names the releases of the same major.minor as want, or else
// the ones just below and above it, and the newest.
func nearReleases(versions []string, want string) string {
	vs := slices.Clone(versions)
	slices.SortFunc(vs, compareVersions)
	if len(vs) == 0 {
		return "it lists no releases at all"
	}
	newest := vs[len(vs)-1]
	var near []string
	for _, v := range vs {
		if majorMinor(v) == majorMinor(want) {
			near = append(near, v)
		}
	}
	if len(near) == 0 {
		i, _ := slices.BinarySearchFunc(vs, want, compareVersions)
		near = vs[max(i-1, 0):min(i+1, len(vs))]
	}
	return fmt.Sprintf("releases near it: %s; the newest is %s", strings.Join(near, ", "), newest)
}

// majorMinor is "4.3" of "4.3.1".
func majorMinor(v string) string {
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

// compareVersions orders release versions by their numeric parts, a
// pre-release (4.0.0-rc1) before its release.
func compareVersions(a, b string) int {
	an, apre, _ := strings.Cut(a, "-")
	bn, bpre, _ := strings.Cut(b, "-")
	ap, bp := strings.Split(an, "."), strings.Split(bn, ".")
	for i := 0; i < max(len(ap), len(bp)); i++ {
		if c := numAt(ap, i) - numAt(bp, i); c != 0 {
			return c
		}
	}
	switch {
	case apre == bpre:
		return 0
	case apre == "":
		return 1
	case bpre == "":
		return -1
	}
	return strings.Compare(apre, bpre)
}

// numAt is the i-th numeric part, 0 when absent or not a number.
func numAt(parts []string, i int) int {
	if i >= len(parts) {
		return 0
	}
	n, _ := strconv.Atoi(parts[i])
	return n
}
