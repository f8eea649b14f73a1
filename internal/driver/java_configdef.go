package driver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/maven"
)

// JavaConfigDef is the producer ConfigDef of one kafka-clients release, as
// its worker prints it (`Main configdef`): the client's own word on which
// properties it defines and with which type.
type JavaConfigDef struct {
	// Client is "kafka-clients VERSION", read from the client's jar.
	Client string `json:"client"`
	// Types maps each producer property to its ConfigDef type name
	// ("PASSWORD", "LONG", "STRING", …).
	Types map[string]string `json:"types"`
}

// Passwords lists the properties the release types as PASSWORD, sorted.
func (d *JavaConfigDef) Passwords() []string {
	var out []string
	for k, t := range d.Types {
		if t == "PASSWORD" {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// ReadJavaConfigDef resolves kafka-clients version (cached) and runs the
// worker's configdef command on it, so that prodlab's secret table can be
// checked against what each release types as a password.
func ReadJavaConfigDef(ctx context.Context, version, workerJar string) (*JavaConfigDef, error) {
	cp, err := javaClassPath(ctx, version, workerJar)
	if err != nil {
		return nil, err
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, "java", "-cp", strings.Join(cp, string(os.PathListSeparator)), WorkerMainClass, "configdef")
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("java driver: configdef of kafka-clients %s: %w; stderr:\n%s", version, err, strings.TrimSpace(stderr.String()))
	}
	var d JavaConfigDef
	if err := json.Unmarshal(stdout.Bytes(), &d); err != nil {
		return nil, fmt.Errorf("java driver: configdef of kafka-clients %s: decode %q: %w", version, stdout.String(), err)
	}
	return &d, nil
}

// javaClassPath checks that the worker jar and a Java runtime exist and
// resolves org.apache.kafka:kafka-clients:<version> and its dependencies
// with Maven (cached): the worker's class path, worker jar first.
func javaClassPath(ctx context.Context, version, workerJar string) ([]string, error) {
	if version == "" {
		return nil, errors.New("java driver: no kafka-clients version given")
	}
	if _, err := os.Stat(workerJar); err != nil {
		return nil, fmt.Errorf("java driver: worker jar: %w (build it with: mvn -B -q -f java/worker/pom.xml package)", err)
	}
	if _, err := exec.LookPath("java"); err != nil {
		return nil, fmt.Errorf("java driver: %w (client java@%s needs a Java 17+ runtime on PATH)", err, version)
	}
	jars, err := maven.Resolve(ctx, javaCacheKey(version), kafkaClientsGroup+":"+kafkaClientsArtifact+":"+version)
	if err != nil {
		return nil, fmt.Errorf("java driver: resolve kafka-clients %s: %w", version, err)
	}
	return append([]string{workerJar}, jars...), nil
}
