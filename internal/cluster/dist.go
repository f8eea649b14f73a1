package cluster

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/prodlab/prodlab/internal/maven"
)

// dist is a runnable Kafka: where its jars are and how to make it log.
type dist struct {
	version   string // release version, "" when unknown
	classpath string
	// confDir, when set, is a local distribution's config directory, whose
	// log4j configuration the brokers use.
	confDir string
}

// resolveDist finds the jars for cfg.Kafka: a release is resolved from Maven
// Central (cached), a directory is used as it is.
func resolveDist(ctx context.Context, kafka string) (dist, error) {
	if isRelease(kafka) {
		jars, err := maven.Resolve(ctx, "kafka-"+kafka, "org.apache.kafka:kafka_2.13:"+kafka, slf4jSimple)
		if err != nil {
			return dist{}, fmt.Errorf("resolve kafka %s: %w", kafka, err)
		}
		return dist{version: kafka, classpath: strings.Join(jars, string(os.PathListSeparator))}, nil
	}
	libs := filepath.Join(kafka, "libs")
	if jars, _ := filepath.Glob(filepath.Join(libs, "*.jar")); len(jars) == 0 {
		return dist{}, fmt.Errorf("kafka distribution %s: no jars in %s", kafka, libs)
	}
	return dist{
		version:   versionFromJars(libs),
		classpath: filepath.Join(libs, "*"),
		confDir:   filepath.Join(kafka, "config"),
	}, nil
}

// javaPath returns $JAVA_HOME/bin/java when JAVA_HOME is set, else java from
// PATH.
func javaPath() (string, error) {
	if home := os.Getenv("JAVA_HOME"); home != "" {
		p := filepath.Join(home, "bin", "java")
		if exists(p) {
			return p, nil
		}
	}
	p, err := exec.LookPath("java")
	if err != nil {
		return "", fmt.Errorf("find java (install a JDK 17+ or set JAVA_HOME): %w", err)
	}
	return p, nil
}

// loggingArgs returns the JVM system properties that make node id log. With
// slf4j-simple (releases from Maven) the log goes to stderr, which is the
// broker log file; a local distribution uses its own log4j configuration,
// with kafka.logs.dir pointing into the run directory.
func (d dist) loggingArgs(dir string, id int) []string {
	if d.confDir == "" {
		return []string{
			"-Dorg.slf4j.simpleLogger.showDateTime=true",
			"-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSSZ",
			"-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
			// The request logger is very chatty at info level.
			"-Dorg.slf4j.simpleLogger.log.kafka.request.logger=warn",
		}
	}
	args := []string{"-Dkafka.logs.dir=" + filepath.Join(dir, fmt.Sprintf("broker-%d-logs", id))}
	if p := filepath.Join(d.confDir, "log4j2.yaml"); exists(p) {
		args = append(args, "-Dlog4j2.configurationFile="+p)
	} else if p := filepath.Join(d.confDir, "log4j.properties"); exists(p) {
		args = append(args, "-Dlog4j.configuration=file:"+p)
	}
	return args
}
