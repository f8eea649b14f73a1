package cluster

// ReleaseOrDefault is kafka when it names a release, else DefaultKafka: the
// release to pick matching artifacts (such as kafka-clients) for a cluster
// whose version is a directory or a guess.
func ReleaseOrDefault(kafka string) string {
	if isRelease(kafka) {
		return kafka
	}
	return DefaultKafka
}
