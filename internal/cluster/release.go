package cluster

// IsRelease reports whether kafka names a release version (such as 4.3.0)
// rather than a local distribution directory.
func IsRelease(kafka string) bool { return isRelease(kafka) }

// ReleaseOrDefault is kafka when it names a release, else DefaultKafka: the
// release to pick matching artifacts (such as kafka-clients) for a cluster
// whose version is a directory or a guess.
func ReleaseOrDefault(kafka string) string {
	if isRelease(kafka) {
		return kafka
	}
	return DefaultKafka
}
