// Package clients is the one list of producer client kinds prodlab drives
// and the syntax of a client name: a kind ("franz-go", "java") or, for a
// versioned kind, kind@VERSION ("java@3.9.1"). It imports nothing of
// prodlab, so that expfile (which only checks names) and driver (which adds
// each kind's constructor and property check, driver/factory.go) share it
// without expfile knowing about drivers.
package clients

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// Kind is one producer client.
type Kind struct {
	// Name is the client name an experiment's client: and perf's --client
	// write.
	Name string
	// Versioned kinds also accept Name@VERSION, a release of the client's
	// library; without it they follow the brokers' release.
	Versioned bool
	// OwnRules kinds judge the idempotence rules (acks, in-flight requests,
	// transactional.id) themselves, by their release's rules; for the
	// others prodlab rejects contradictions before anything starts.
	OwnRules bool
	// Doc is one line for help texts.
	Doc string

	// Capabilities, read by the code that would otherwise ask for a kind by
	// name; a new kind states them here.

	// LiftableCap says the idempotent producer's in-flight check can be
	// lifted by prodlab's agent (KIP-1269 emulation), which rewrites it in
	// the client's own code before the producer starts.
	LiftableCap bool
	// CapWhy says, for a kind whose idempotent producer fixes its in-flight
	// limit at IdempotentMaxInFlight and cannot be lifted, why; messages
	// quote it after the refusal. "" for a kind that allows any limit up
	// to IdempotentMaxInFlight (librdkafka: 1 to 5).
	CapWhy string
	// InProcess says the client runs in prodlab's own process (franz-go),
	// so CPU sets cannot confine it apart from prodlab's own work.
	InProcess bool
	// GoWorkload says the client's records come from prodlab's Go send
	// loop (driver/sendloop.go: franz-go, librdkafka), which writes package
	// payload's exact bytes for a seed; the Java worker writes its own
	// (docs/worker-protocol.md, "Payloads").
	GoWorkload bool
	// OnTrogdor says Trogdor agents can run the kind: the Java client as
	// prodlab's task in the agents' own JVM (their kafka-clients), the
	// others as FleetWorker.
	OnTrogdor bool
	// FleetWorker is the command that runs the kind's trials on a Trogdor
	// agent through Trogdor's ExternalCommandSpec (docs/distributed.md):
	// the worker executable's file name, looked for in the agent's worker
	// directory, then its arguments. Nil for a kind the agents run in their
	// own JVM (java).
	FleetWorker []string
	// RecordLimit is the producer setting (Java property name) that bounds
	// the size of one record: max.request.size for kafka-clients, and
	// batch.size for franz-go, whose driver maps it to the batch limit
	// (ProducerBatchMaxBytes).
	RecordLimit string
	// IdempotentMaxInFlight is the most requests in flight per connection
	// the kind's idempotent producer allows (5 for both; franz-go fixes it
	// there whatever the setting says).
	IdempotentMaxInFlight int
	// Transactions says the kind's driver runs transactional producers
	// (transactional.id, with a commit per batch of records).
	Transactions bool
	// IdempotentByDefault says the client's producer is idempotent when
	// enable.idempotence is not written (the Java client since 3.0, and
	// franz-go); librdkafka's is not.
	IdempotentByDefault bool
	// Bundled is the one release of a kind whose library ships inside its
	// worker (librdkafka, with confluent-kafka-go): kind@Bundled is
	// accepted, any other release refused naming it; "" for other kinds.
	Bundled string
	// Defaults are the kind's values, in Java terms, for the settings a
	// model needs when the experiment leaves them unset; release is the
	// client's (or the brokers') release, "" for the newest.
	Defaults func(release string) kafkaconf.Defaults
	// SpelledTwice groups the names among a scenario's settings that are
	// one setting of this kind in two spellings (its aliases); nil for a
	// kind with one name per setting.
	SpelledTwice func(names []string) [][]string
}

// Names of the kinds, for code that must tell them apart.
const (
	Franz      = "franz-go"
	Java       = "java"
	Librdkafka = "librdkafka"
)

// LibrdkafkaRelease is the librdkafka release confluent-kafka-go bundles
// into prodlab's librdkafka worker (go.mod's confluent-kafka-go v2.11.1);
// the worker's test checks it against the linked library.
const LibrdkafkaRelease = "2.11.1"

// kinds is the registry, in the order messages list the kinds. A new kind
// is one entry here and its driver's registration (driver/factory.go).
var kinds = []Kind{
	{Name: Franz, Doc: "franz-go (github.com/twmb/franz-go), in process", InProcess: true, GoWorkload: true,
		OnTrogdor:             true,
		FleetWorker:           []string{"prodlab", "worker", Franz, "trogdor"},
		CapWhy:                "franz-go's idempotent producer fixes 5 requests in flight itself, and no agent reaches it",
		RecordLimit:           "batch.size",
		IdempotentMaxInFlight: 5,
		Transactions:          true,
		IdempotentByDefault:   true,
		Defaults:              func(string) kafkaconf.Defaults { return kafkaconf.FranzDefaults }},
	{Name: Java, Versioned: true, OwnRules: true,
		Doc:                   "the official Java client (kafka-clients) in a worker JVM; java@VERSION picks its release",
		LiftableCap:           true,
		OnTrogdor:             true,
		RecordLimit:           "max.request.size",
		IdempotentMaxInFlight: 5,
		Transactions:          true,
		IdempotentByDefault:   true,
		Defaults:              kafkaconf.JavaDefaults},
	{Name: Librdkafka, Bundled: LibrdkafkaRelease, GoWorkload: true,
		Doc:                   "librdkafka " + LibrdkafkaRelease + " (the C client under confluent-kafka-python, -dotnet, -go and Confluent's JavaScript client), in a worker process",
		OnTrogdor:             true,
		FleetWorker:           []string{"prodlab-librdkafka", "trogdor"},
		RecordLimit:           "message.max.bytes",
		Transactions:          true,
		IdempotentMaxInFlight: 5,
		Defaults:              func(string) kafkaconf.Defaults { return kafkaconf.LibrdkafkaDefaults },
		SpelledTwice:          kafkaconf.LibrdkafkaSpelledTwice},
}

// Kinds returns every kind, in the order messages list them.
func Kinds() []Kind { return append([]Kind(nil), kinds...) }

// versionRE is the syntax of a release: 3.9.1, 4.0, 4.1.0-rc1.
var versionRE = regexp.MustCompile(`^\d+\.\d+(\.\d+)?([-.][0-9A-Za-z.-]+)?$`)

// Client is a parsed client name.
type Client struct {
	Kind Kind
	// Version is the release after "@"; "" when the name has none.
	Version string
}

// Parse reads a client name: a kind's name or, for a versioned kind,
// name@VERSION.
func Parse(name string) (Client, error) {
	base, version, hasVersion := strings.Cut(name, "@")
	for _, k := range kinds {
		if k.Name != base {
			continue
		}
		if !hasVersion {
			return Client{Kind: k}, nil
		}
		if k.Bundled != "" && version != k.Bundled {
			return Client{}, fmt.Errorf("client %s: prodlab's %s worker bundles %s %s, and only that release runs (write %s or %s@%s)", name, k.Name, k.Name, k.Bundled, k.Name, k.Name, k.Bundled)
		}
		if (k.Versioned || k.Bundled != "") && versionRE.MatchString(version) {
			return Client{Kind: k, Version: version}, nil
		}
		break
	}
	return Client{}, fmt.Errorf("unknown client %q (want %s)", name, Syntax("VERSION"))
}

// Release is the release of the client's library the name selects: its
// version, the bundled one, or brokerRelease when it names none.
func (c Client) Release(brokerRelease string) string {
	if c.Version != "" {
		return c.Version
	}
	if c.Kind.Bundled != "" {
		return c.Kind.Bundled
	}
	return brokerRelease
}

// Syntax lists the accepted names for messages, the version written as
// placeholder: "franz-go, java or java@VERSION".
func Syntax(placeholder string) string {
	var names []string
	for _, k := range kinds {
		names = append(names, k.Name)
		if k.Versioned {
			names = append(names, k.Name+"@"+placeholder)
		}
		if k.Bundled != "" {
			names = append(names, k.Name+"@"+k.Bundled)
		}
	}
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
