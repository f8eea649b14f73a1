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
