package driver

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/prodlab/prodlab/internal/clients"
)

// AgentJarName is the file name of prodlab's agent (java/agent), built next
// to the worker jar by 'make build'.
const AgentJarName = "prodlab-agent.jar"

// AgentJar finds prodlab's agent: $PRODLAB_AGENT_JAR, else next to the
// worker jar (bin/), else the agent module's build output beside the
// worker's (java/agent/target), else java/agent/target under the working
// directory.
func AgentJar(workerJar string) string {
	if p := os.Getenv("PRODLAB_AGENT_JAR"); p != "" {
		return p
	}
	if workerJar != "" {
		dir := filepath.Dir(workerJar)
		// bin/ holds both; a worker from java/worker/target has the
		// agent's module beside its own.
		for _, p := range []string{
			filepath.Join(dir, AgentJarName),
			filepath.Join(dir, "..", "..", "agent", "target", AgentJarName),
		} {
			if _, err := os.Stat(p); err == nil {
				return p
			}
		}
	}
	return filepath.Join("java", "agent", "target", AgentJarName)
}

// LiftedKey names the driver of a client whose idempotence cap is lifted:
// a worker JVM of its own, apart from the stock one of Key.
func LiftedKey(client, brokerRelease string) string {
	return Key(client, brokerRelease) + "+kip1269"
}

// NewLifted starts a Java worker whose producer accepts idempotence with
// more than 5 requests in flight (KIP-1269 emulation): the JVM runs with
// prodlab's agent in client mode, which rewrites that one check in
// ProducerConfig and refuses to start on a release it does not recognise.
// Its log is java-<release>-kip1269.log.
func NewLifted(ctx context.Context, client, brokerRelease, workerJar, logDir string) (Driver, error) {
	c, err := clients.Parse(client)
	if err != nil {
		return nil, err
	}
	if !c.Kind.LiftableCap {
		return nil, fmt.Errorf("the idempotence cap can only be lifted in the Java client, not %s", client)
	}
	agent := AgentJar(workerJar)
	if _, err := os.Stat(agent); err != nil {
		return nil, fmt.Errorf("lifting the client cap needs prodlab's agent (build it with 'make build', or point PRODLAB_AGENT_JAR at it): %w", err)
	}
	release := c.Release(brokerRelease)
	cp, err := javaClassPath(ctx, release, workerJar)
	if err != nil {
		return nil, err
	}
	j, err := startJavaWith(ctx, release, cp, logDir, []string{"-javaagent:" + agent + "=client"}, "java-"+release+"-kip1269.log")
	if err != nil {
		return nil, fmt.Errorf("start the Java worker (client cap lifted) for kafka-clients %s: %w", release, err)
	}
	return j, nil
}

// CheckLifted runs the agent's check against the kafka-clients release a
// client name selects, before anything starts: it fails, with the agent's
// own reason naming the release, when the agent does not recognise that
// release's ProducerConfig.
func CheckLifted(ctx context.Context, client, brokerRelease, workerJar string) error {
	c, err := clients.Parse(client)
	if err != nil {
		return err
	}
	agent := AgentJar(workerJar)
	if _, err := os.Stat(agent); err != nil {
		return fmt.Errorf("kip1269.lift.client.cap needs prodlab's agent (build it with 'make build', or point PRODLAB_AGENT_JAR at it): %w", err)
	}
	release := c.Release(brokerRelease)
	cp, err := javaClassPath(ctx, release, workerJar)
	if err != nil {
		return err
	}
	cmd := exec.CommandContext(ctx, "java", "-XX:TieredStopAtLevel=1", "-Xshare:auto",
		"-cp", strings.Join(append([]string{agent}, cp...), string(os.PathListSeparator)), "dev.prodlab.agent.Agent", "client")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("kip1269.lift.client.cap on kafka-clients %s: %s", release, strings.TrimSpace(string(out)))
	}
	return nil
}
