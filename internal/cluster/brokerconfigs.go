package cluster

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/maven"
)

// brokerConfigsClass is the worker's class that prints a broker's
// ConfigDef (java/worker/.../BrokerConfigs.java): run on the broker's own
// class path, it is the broker's word on which properties exist.
const brokerConfigsClass = "dev.prodlab.worker.BrokerConfigs"

// BrokerConfigDef maps every property the broker of kafka (a release or a
// local build's directory) defines to its ConfigDef type ("INT",
// "STRING", …). A release's definitions are cached under the prodlab cache
// (broker-configs/<release>.tsv); a directory is read afresh each time,
// since a local build changes. workerJar is the Java worker, which holds
// the class that prints them.
func BrokerConfigDef(ctx context.Context, kafka, workerJar string) (map[string]string, error) {
	if kafka == "" {
		kafka = DefaultKafka
	}
	cache := brokerConfigCache(kafka)
	if data, err := os.ReadFile(cache); err == nil {
		if def, err := parseConfigDef(data); err == nil {
			return def, nil
		}
	}
	data, err := readConfigDef(ctx, kafka, workerJar)
	if err != nil {
		return nil, err
	}
	def, err := parseConfigDef(data)
	if err != nil {
		return nil, fmt.Errorf("broker configs of kafka %s: %w", kafka, err)
	}
	if cache != "" {
		_ = writeFileAtomic(cache, data) // a cache: failing to keep it costs a JVM start
	}
	return def, nil
}

// brokerConfigCache is where a release's definitions are kept, or "" for
// a directory (or when there is no cache directory).
func brokerConfigCache(kafka string) string {
	if !isRelease(kafka) {
		return ""
	}
	dir, err := maven.CacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "broker-configs", kafka+".tsv")
}

// readConfigDef runs the worker's BrokerConfigs class on the broker's
// class path and returns what it prints.
func readConfigDef(ctx context.Context, kafka, workerJar string) ([]byte, error) {
	if _, err := os.Stat(workerJar); err != nil {
		return nil, fmt.Errorf("cluster.configs are checked by the Java worker, which is not at %s (build it with 'make build', or point PRODLAB_WORKER_JAR at it): %w", workerJar, err)
	}
	java, err := javaPath()
	if err != nil {
		return nil, err
	}
	d, err := resolveDist(ctx, kafka)
	if err != nil {
		return nil, err
	}
	cp := workerJar + string(os.PathListSeparator) + d.classpath
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, java, "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-cp", cp, brokerConfigsClass)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("read the broker configs of kafka %s: %w\n%s", kafka, err, indent(lastLines(stderr.String(), 10)))
	}
	return stdout.Bytes(), nil
}

// parseConfigDef reads "name TAB TYPE" lines.
func parseConfigDef(data []byte) (map[string]string, error) {
	def := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		name, typ, ok := strings.Cut(sc.Text(), "\t")
		if !ok || name == "" || typ == "" {
			return nil, fmt.Errorf("config definition line %q: want NAME<TAB>TYPE", sc.Text())
		}
		def[name] = typ
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read config definitions: %w", err)
	}
	if len(def) == 0 {
		return nil, errors.New("no config definitions")
	}
	return def, nil
}

// dynamicPrefixes are families of broker properties that no ConfigDef
// lists name by name: per-listener overrides (listener.name.<listener>.…),
// which the broker reads by prefix.
var dynamicPrefixes = []string{"listener.name."}

// UnknownBrokerConfigs returns the names the broker definitions def do not
// know, sorted.
func UnknownBrokerConfigs(def map[string]string, names []string) []string {
	var out []string
	for _, n := range names {
		if _, ok := def[n]; ok || slices.ContainsFunc(dynamicPrefixes, func(p string) bool { return strings.HasPrefix(n, p) }) {
			continue
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

// writeFileAtomic writes data to path through a temporary file and a
// rename, so that a concurrent reader never sees half a file.
func writeFileAtomic(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) //nolint:errcheck // gone after the rename; best effort otherwise
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
