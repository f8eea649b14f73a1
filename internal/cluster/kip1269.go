package cluster

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
)

// KIP-1269 emulation: prodlab's agent (java/agent, bin/prodlab-agent.jar)
// rewrites ProducerStateEntry.addBatchMetadata on every node so that brokers
// retain Config.KIP1269Retain batches per producer and partition instead of
// the stock five. The agent checks the bytecode itself and makes the JVM exit
// with its reason on a release it does not recognise; the node's log holds
// that line and what it patched.

// KIP1269RetainProperty is the system property the agent reads.
const KIP1269RetainProperty = "prodlab.kip1269.retain"

// agentArgs are the JVM options that load the agent on a node, none when the
// cluster does not emulate KIP-1269. release names the Kafka release in the
// agent's messages.
func agentArgs(cfg Config, release string) ([]string, error) {
	if cfg.KIP1269Retain <= 0 {
		return nil, nil
	}
	if cfg.Agent == "" {
		return nil, fmt.Errorf("KIP-1269 emulation (retain %d) needs prodlab's agent jar, and none was given", cfg.KIP1269Retain)
	}
	if _, err := os.Stat(cfg.Agent); err != nil {
		return nil, fmt.Errorf("KIP-1269 emulation needs prodlab's agent (build it with 'make build'): %w", err)
	}
	return []string{
		"-javaagent:" + cfg.Agent + "=broker",
		"-D" + KIP1269RetainProperty + "=" + strconv.Itoa(cfg.KIP1269Retain),
		"-Dprodlab.kafka.release=" + cmp.Or(release, cfg.Kafka, DefaultKafka),
	}, nil
}

// agentMainClass verifies a release without patching it (Agent.main).
const agentMainClass = "dev.prodlab.agent.Agent"

// CheckAgent runs the agent's check against the broker class path of kafka
// (a release, "" for DefaultKafka, or a local distribution) before anything starts: it fails,
// with the agent's own reason naming the release, when the agent does not
// recognise that release's ProducerStateEntry.
func CheckAgent(ctx context.Context, kafka, agent string, retain int) error {
	if _, err := os.Stat(agent); err != nil {
		return fmt.Errorf("KIP-1269 emulation needs prodlab's agent (build it with 'make build', or point PRODLAB_AGENT_JAR at it): %w", err)
	}
	java, err := javaPath()
	if err != nil {
		return err
	}
	kafka = cmp.Or(kafka, DefaultKafka)
	d, err := resolveDist(ctx, kafka)
	if err != nil {
		return err
	}
	release := cmp.Or(d.version, kafka)
	var out bytes.Buffer
	cmd := exec.CommandContext(ctx, java, "-XX:TieredStopAtLevel=1", "-Xshare:auto",
		"-D"+KIP1269RetainProperty+"="+strconv.Itoa(retain), "-Dprodlab.kafka.release="+release,
		"-cp", agent+string(os.PathListSeparator)+d.classpath, agentMainClass, "broker")
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("kip1269.retain on Kafka %s: %s", release, strings.TrimSpace(lastLines(out.String(), 3)))
	}
	return nil
}

// kip1269Properties are the names KIP-1269's broker setting has had: the
// topic-level property with a server default it was renamed to during the
// vote, and its first, broker-level name.
var kip1269Properties = []string{"producer.state.batches.to.retain", "max.idempotence.batches.to.retain"}

// KIP1269Property returns the property of a Kafka whose broker config
// definitions def implement KIP-1269, "" for a stock Kafka.
func KIP1269Property(def map[string]string) string {
	for _, p := range kip1269Properties {
		if _, ok := def[p]; ok {
			return p
		}
	}
	return ""
}

// NativeKIP1269 reports whether kafka (a release, "" for DefaultKafka, or a
// local build's directory) implements KIP-1269, by its broker's own config
// definitions: it returns the KIP's property, which then replaces the
// agent, or "" for a stock Kafka. workerJar prints the definitions
// (BrokerConfigDef: cached for releases, read afresh for a directory).
func NativeKIP1269(ctx context.Context, kafka, workerJar string) (string, error) {
	def, err := BrokerConfigDef(ctx, kafka, workerJar)
	if err != nil {
		return "", fmt.Errorf("kip1269.retain: does kafka %s implement KIP-1269? %w", cmp.Or(kafka, DefaultKafka), err)
	}
	return KIP1269Property(def), nil
}
