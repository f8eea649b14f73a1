package expfile

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/prodlab/prodlab/internal/clients"
)

// KIP-1269 emulation (issue 15): the section kip1269 {retain, lift.client.cap}
// makes prodlab start its brokers and Java worker with its own agent
// (java/agent), which rewrites stock Kafka so that brokers retain more than
// five batches of sequence metadata per producer and partition, and the Java
// producer accepts idempotence with more than five requests in flight.
// Without the section nothing is patched.
const (
	// KIP1269MinRetain is KIP-1269's own minimum, the stock limit.
	KIP1269MinRetain = 5
	// KIP1269MaxRetain bounds kip1269.retain: every retained batch is kept
	// per producer and partition in the broker's heap.
	KIP1269MaxRetain = 1000
)

// kip1269Fields are the settings of the kip1269 section, matrix keys like
// any other. kip1269.retain lives in the cluster (Cluster.KIP1269Retain) so
// that scenarios retaining differently get clusters of their own.
var kip1269Fields = []field{
	{
		key:       "kip1269.retain",
		normalize: checkKIP1269Retain,
		assign:    func(e *Experiment, v string) { e.Cluster.KIP1269Retain, _ = strconv.Atoi(v) },
		typed:     func(v string) any { n, _ := strconv.ParseInt(v, 10, 64); return n },
	},
	boolField("kip1269.lift.client.cap", func(e *Experiment) *bool { return &e.KIP1269LiftClientCap }),
}

// checkKIP1269Retain accepts an integer in KIP1269MinRetain..KIP1269MaxRetain;
// below the minimum is refused with the KIP's reason.
func checkKIP1269Retain(raw, _ string) (string, error) {
	n, err := parseInt(raw)
	if err != nil {
		return "", fmt.Errorf("kip1269.retain must be an integer in %d..%d, got %q", KIP1269MinRetain, KIP1269MaxRetain, raw)
	}
	if n < KIP1269MinRetain {
		return "", fmt.Errorf("kip1269.retain must be at least %d (KIP-1269's own minimum: brokers already retain 5 batches), got %d", KIP1269MinRetain, n)
	}
	if n > KIP1269MaxRetain {
		return "", fmt.Errorf("kip1269.retain must be at most %d (every retained batch stays in the broker's heap per producer and partition), got %d", KIP1269MaxRetain, n)
	}
	return strconv.FormatInt(n, 10), nil
}

// checkKIP1269 refuses what the emulation cannot do: lifting the client cap
// of a client other than the Java one (franz-go's idempotent producer fixes
// five requests in flight itself; no agent can reach it).
func checkKIP1269(e *Experiment, report reportFunc) {
	if !e.KIP1269LiftClientCap {
		return
	}
	c, err := clients.Parse(e.Client)
	if err != nil || c.Kind.LiftableCap {
		return // an unknown client is reported by its own check
	}
	why := c.Kind.CapWhy
	if why == "" {
		why = "only the Java producer's check can be lifted"
	}
	report([]string{"kip1269.lift.client.cap", "client"},
		"kip1269.lift.client.cap needs client java (kafka-clients), got client %s: %s; use client java or drop kip1269.lift.client.cap", e.Client, why)
}

// KIP1269 reports whether the experiment emulates KIP-1269 at all.
func (e *Experiment) KIP1269() bool {
	return e.Cluster.KIP1269Retain > 0 || e.KIP1269LiftClientCap
}

// KIP1269Label is the honest label of a result from a patched broker or
// client, e.g. "emulated KIP-1269: broker retains 20, client cap lifted";
// "" when nothing is patched. native is the broker property of a Kafka that
// implements the KIP itself (cluster.NativeKIP1269), which then sets the
// retention instead of the agent: "KIP-1269 build:
// producer.state.batches.to.retain=20; emulated KIP-1269: client cap
// lifted". "" for a stock Kafka.
func (e *Experiment) KIP1269Label(native string) string {
	var parts, emulated []string
	if n := e.Cluster.KIP1269Retain; n > 0 && native != "" {
		parts = append(parts, fmt.Sprintf("KIP-1269 build: %s=%d", native, n))
	} else if n > 0 {
		emulated = append(emulated, fmt.Sprintf("broker retains %d", n))
	}
	if e.KIP1269LiftClientCap {
		emulated = append(emulated, "client cap lifted")
	}
	if len(emulated) > 0 {
		parts = append(parts, "emulated KIP-1269: "+strings.Join(emulated, ", "))
	}
	return strings.Join(parts, "; ")
}

// withKIP1269 adds the kip1269 section to a YAML document when the
// experiment has one, so that files without it keep their form.
func withKIP1269(doc yaml.MapSlice, e *Experiment) yaml.MapSlice {
	var sec yaml.MapSlice
	if n := e.Cluster.KIP1269Retain; n > 0 {
		sec = append(sec, yaml.MapItem{Key: "retain", Value: n})
	}
	if e.KIP1269LiftClientCap {
		sec = append(sec, yaml.MapItem{Key: "lift.client.cap", Value: true})
	}
	if len(sec) == 0 {
		return doc
	}
	return append(doc, yaml.MapItem{Key: "kip1269", Value: sec})
}
