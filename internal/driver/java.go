package driver

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strings"

	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// WorkerMainClass is the Java worker's entry point.
const WorkerMainClass = "dev.prodlab.worker.Main"

func init() {
	register(clients.Java, kind{
		check: CheckJava,
		start: func(ctx context.Context, release, workerJar, logDir string) (Driver, error) {
			j, err := NewJava(ctx, release, workerJar, logDir)
			if err != nil {
				return nil, fmt.Errorf("start the Java worker for kafka-clients %s: %w", release, err)
			}
			return j, nil
		},
		worker:  true,
		resolve: resolveJava,
	})
}

// NewJava resolves org.apache.kafka:kafka-clients:<version> and its
// dependencies with Maven (cached), starts the worker JVM from workerJar and
// shakes hands with it. The worker's stderr goes to logDir/java-<version>.log
// (discarded when logDir is empty).
func NewJava(ctx context.Context, version, workerJar, logDir string) (*Worker, error) {
	cp, err := javaClassPath(ctx, version, workerJar)
	if err != nil {
		return nil, err
	}
	return startJava(ctx, version, cp, logDir)
}

// WorkerJVMOptsEnv names the environment variable whose options (split on
// white space) the Java worker's JVM gets, e.g. -Xmx1g; a run records
// them (environment.json).
const WorkerJVMOptsEnv = "PRODLAB_WORKER_JVM_OPTS"

// WorkerJVMOpts returns the options of WorkerJVMOptsEnv (none when unset).
func WorkerJVMOpts() []string { return strings.Fields(os.Getenv(WorkerJVMOptsEnv)) }

// startJava starts the worker with the given class path and says hello.
func startJava(ctx context.Context, version string, classpath []string, logDir string) (*Worker, error) {
	return startJavaWith(ctx, version, classpath, logDir, nil, "java-"+version+".log")
}

// startJavaWith is startJava with extra JVM options (prodlab's agent, see
// java_agent.go) and the name of the worker's log in logDir.
func startJavaWith(ctx context.Context, version string, classpath []string, logDir string, jvm []string, logName string) (*Worker, error) {
	args := WorkerJVMOpts()
	args = append(args, jvm...)
	args = append(args, "-cp", strings.Join(classpath, string(os.PathListSeparator)), WorkerMainClass)
	cmd := exec.Command("java", args...)
	return startWorker(ctx, clients.Java+"@"+version, version, CheckJava, cmd, logDir, logName)
}

// javaUnsupported are prodlab's own producer properties the Java client
// cannot honour, with the reason.
var javaUnsupported = map[string]string{
	"max.buffered.records": "the Java producer bounds its buffer by bytes (buffer.memory), not by a record count",
}

// CheckJava is Check for a named Java client without a running worker, so
// that a plan can be validated before anything starts.
func CheckJava(name string, props map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(props)) {
		if why, ok := javaUnsupported[k]; ok {
			return fmt.Errorf("producer property %s is not supported by client %s: %s", k, name, why)
		}
		if _, rd := kafkaconf.Librdkafka(k); rd && !kafkaconf.JavaHas(k) {
			return errors.New(kafkaconf.RefuseFor(k, name, kafkaconf.Nearest(k, kafkaconf.JavaHas, kafkaconf.JavaNames()), "it is librdkafka's"))
		}
	}
	return nil
}
