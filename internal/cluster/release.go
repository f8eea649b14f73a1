package cluster

// IsRelease reports whether kafka names a release version (such as 4.3.0)
// rather than a local distribution directory.
func IsRelease(kafka string) bool { return isRelease(kafka) }
