// Package maven resolves Java artifacts from Maven Central into prodlab's
// cache directory, so that prodlab can run Kafka brokers and Java clients
// without asking the user to install a Kafka distribution.
//
// Resolution is delegated to the mvn command (dependency:copy-dependencies),
// which brings transitive dependency mediation for free, and is done once per
// cache key: a completed resolution is marked and reused on later runs.
package maven

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// CacheEnv names the environment variable that overrides the cache directory.
const CacheEnv = "PRODLAB_CACHE"

// CacheDir returns the directory prodlab keeps downloaded artifacts and state
// in: $PRODLAB_CACHE when set, otherwise os.UserCacheDir()/prodlab. The
// directory is not created.
func CacheDir() (string, error) {
	if dir := os.Getenv(CacheEnv); dir != "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return "", fmt.Errorf("resolve %s=%q: %w", CacheEnv, dir, err)
		}
		return abs, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find user cache directory (set %s): %w", CacheEnv, err)
	}
	return filepath.Join(base, "prodlab"), nil
}

// StatePath is where prodlab keeps the state file name between commands:
// CacheDir()/name, or a path in the temporary directory when there is no
// cache directory.
func StatePath(name string) string {
	dir, err := CacheDir()
	if err != nil {
		dir = filepath.Join(os.TempDir(), "prodlab")
	}
	return filepath.Join(dir, name)
}

// CheckCacheDir refuses a cache directory that cannot be one: a path
// whose nearest existing part is not a directory ($PRODLAB_CACHE naming
// a file). Without it the first download would fail minutes in, and its
// message would blame Maven Central.
//
// A path holding the class path separator (':') is refused too: the jars
// under it would each be split in two on the Java command line.
func CheckCacheDir() error {
	dir, err := CacheDir()
	if err != nil {
		return err
	}
	if strings.ContainsRune(dir, os.PathListSeparator) {
		return fmt.Errorf("%s=%s holds %q, which splits a Java class path; point %s at a directory whose path has none",
			CacheEnv, os.Getenv(CacheEnv), os.PathListSeparator, CacheEnv)
	}
	for p := dir; ; p = filepath.Dir(p) {
		st, err := os.Stat(p)
		if err == nil && !st.IsDir() {
			return fmt.Errorf("%s=%s: %s is not a directory; point %s at a directory (created if missing)",
				CacheEnv, os.Getenv(CacheEnv), p, CacheEnv)
		}
		if err == nil || p == filepath.Dir(p) {
			return nil
		}
	}
}
