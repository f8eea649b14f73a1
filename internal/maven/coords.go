package maven

import (
	"fmt"
	"regexp"
	"strings"
)

// coordinate is one "group:artifact:version" Maven coordinate.
type coordinate struct {
	Group, Artifact, Version string
}

// String returns the coordinate in its "group:artifact:version" form.
func (c coordinate) String() string {
	return c.Group + ":" + c.Artifact + ":" + c.Version
}

// coordPart is what each coordinate part may contain; it keeps coordinates
// safe to embed in a pom.xml without escaping.
var coordPart = regexp.MustCompile(`^[A-Za-z0-9_.\-]+$`)

// parseCoordinate parses "group:artifact:version".
func parseCoordinate(s string) (coordinate, error) {
	parts := strings.Split(s, ":")
	if len(parts) != 3 {
		return coordinate{}, fmt.Errorf("artifact %q: want group:artifact:version", s)
	}
	for _, p := range parts {
		if !coordPart.MatchString(p) {
			return coordinate{}, fmt.Errorf("artifact %q: part %q may only contain letters, digits, '.', '_' and '-'", s, p)
		}
	}
	return coordinate{Group: parts[0], Artifact: parts[1], Version: parts[2]}, nil
}

// keyPattern is what a cache key may look like: it names a directory, so no
// separators, and it must not start with a dot (".", "..", hidden files).
var keyPattern = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.\-]*$`)

// validateKey rejects cache keys that are not a single safe directory name.
func validateKey(key string) error {
	if !keyPattern.MatchString(key) {
		return fmt.Errorf("cache key %q: want a directory name of letters, digits, '.', '_' and '-'", key)
	}
	return nil
}
