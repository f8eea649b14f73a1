package cluster

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
)

// DefaultKafka is the Kafka release an embedded cluster runs when none is
// named. This is the one place it is defined.
//
// It is the newest release whose broker resolves from Maven Central with
// all its dependencies and starts: 4.4.0 (its kafka-tools-api artifact,
// missing at first, is now published). 4.3.x and 3.9.x stay tested
// (TestReleases).
const DefaultKafka = "4.4.0"

// slf4jSimple is the logging binding added to a release resolved from Maven
// Central: kafka_2.13 brings slf4j-api without a binding, and without one the
// broker would write no log at all.
const slf4jSimple = "org.slf4j:slf4j-simple:1.7.36"

// releasePattern matches Kafka release versions such as 4.3.0 or 4.0.0-rc1.
var releasePattern = regexp.MustCompile(`^[0-9]+\.[0-9]+\.[0-9]+(-[A-Za-z0-9.]+)?$`)

// isRelease reports whether kafka names a release rather than a directory.
func isRelease(kafka string) bool {
	return releasePattern.MatchString(kafka)
}

// brokerJarPattern matches the core broker jar of a distribution, e.g.
// kafka_2.13-4.3.0.jar, and captures the version.
var brokerJarPattern = regexp.MustCompile(`^kafka_2\.[0-9]+-([0-9][A-Za-z0-9.\-]*?)(-test|-sources|-javadoc|-scaladoc|-test-sources)?\.jar$`)

// versionFromJars guesses the Kafka version of a libs directory from the
// name of its core broker jar; it returns "" when there is none.
func versionFromJars(libs string) string {
	matches, _ := filepath.Glob(filepath.Join(libs, "kafka_2.*.jar"))
	sort.Strings(matches)
	for _, m := range matches {
		sub := brokerJarPattern.FindStringSubmatch(filepath.Base(m))
		if sub != nil && sub[2] == "" {
			return sub[1]
		}
	}
	return ""
}

// exists reports whether path exists.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
