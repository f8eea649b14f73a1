package maven

import (
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// RepoEnv names the environment variable that overrides the remote
// repository Versions reads (default DefaultRepo).
const RepoEnv = "PRODLAB_MAVEN_REPO"

// DefaultRepo is Maven Central, where mvn resolves from by default.
const DefaultRepo = "https://repo.maven.apache.org/maven2"

// versionsTimeout bounds the metadata request.
const versionsTimeout = 15 * time.Second

// metadata is the part of a maven-metadata.xml that lists releases.
type metadata struct {
	Versions []string `xml:"versioning>versions>version"`
}

// Versions lists the published versions of group:artifact, as the remote
// repository's maven-metadata.xml gives them (in its order, oldest first),
// so that a version can be checked, and the nearest ones named, before
// anything is resolved.
func Versions(ctx context.Context, group, artifact string) ([]string, error) {
	c, err := parseCoordinate(group + ":" + artifact + ":0")
	if err != nil {
		return nil, err
	}
	repo := strings.TrimRight(os.Getenv(RepoEnv), "/")
	if repo == "" {
		repo = DefaultRepo
	}
	url := repo + "/" + strings.ReplaceAll(c.Group, ".", "/") + "/" + c.Artifact + "/maven-metadata.xml"
	ctx, cancel := context.WithTimeout(ctx, versionsTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("list versions of %s:%s: %w", group, artifact, err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, fmt.Errorf("list versions of %s:%s: %w", group, artifact, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("list versions of %s:%s: %s: %s", group, artifact, url, resp.Status)
	}
	var m metadata
	if err := xml.NewDecoder(io.LimitReader(resp.Body, 8<<20)).Decode(&m); err != nil {
		return nil, fmt.Errorf("list versions of %s:%s: read %s: %w", group, artifact, url, err)
	}
	if len(m.Versions) == 0 {
		return nil, fmt.Errorf("list versions of %s:%s: %s lists none", group, artifact, url)
	}
	return m.Versions, nil
}

// Local reports whether group:artifact:version is already on this machine:
// in a completed prodlab resolution under key, or as a jar in the user's
// local Maven repository (~/.m2/repository), so that it can be used
// without the network.
func Local(key, group, artifact, version string) bool {
	coord, err := parseCoordinate(group + ":" + artifact + ":" + version)
	if err != nil {
		return false
	}
	if cache, err := CacheDir(); err == nil && validateKey(key) == nil {
		if _, ok := cached(filepath.Join(cache, "maven", key), []coordinate{coord}); ok {
			return true
		}
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return false
	}
	jar := filepath.Join(home, ".m2", "repository", filepath.FromSlash(strings.ReplaceAll(group, ".", "/")),
		artifact, version, artifact+"-"+version+".jar")
	_, err = os.Stat(jar)
	return err == nil
}
