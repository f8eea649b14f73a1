package expfile

import (
	"slices"

	"github.com/goccy/go-yaml"

	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/maven"
)

// Security modes of cluster.security: how clients reach an embedded
// cluster's client listener. The names are Kafka's security.protocol values
// in lower case; both SASL modes use SCRAM-SHA-512.
const (
	SecurityPlaintext     = "plaintext"
	SecuritySSL           = "ssl"
	SecuritySASLPlaintext = "sasl_plaintext"
	SecuritySASLSSL       = "sasl_ssl"
)

// SecurityModes lists every cluster.security value, default first.
var SecurityModes = []string{SecurityPlaintext, SecuritySSL, SecuritySASLPlaintext, SecuritySASLSSL}

// scramSince is the first Kafka release (major, minor) whose storage tool adds SCRAM
// users at format time (KIP-900), which is how prodlab creates its user.
var scramSince = [2]int{3, 5}

// checkSecurity normalizes a cluster.security value: one of SecurityModes,
// case-insensitive (Kafka's own spelling, SASL_SSL, is accepted too). An
// experiment that names none keeps "", which means plaintext everywhere.
var checkSecurity = oneOf("cluster.security", SecurityModes)

// UsesTLS reports whether a cluster.security mode encrypts the client
// listener.
func UsesTLS(mode string) bool {
	return mode == SecuritySSL || mode == SecuritySASLSSL
}

// UsesSASL reports whether a cluster.security mode authenticates clients
// with SCRAM-SHA-512.
func UsesSASL(mode string) bool {
	return mode == SecuritySASLPlaintext || mode == SecuritySASLSSL
}

// checkSecurityScenario reports the combinations of cluster.security that
// cannot work: a connection cut under TLS (the proxies cannot see Kafka's
// framing inside TLS, so they cannot tell a produce request), and SCRAM on
// a Kafka release older than scramSince.
func checkSecurityScenario(e *Experiment, report reportFunc) {
	mode := e.Cluster.Security
	if UsesTLS(mode) {
		if e.Network.CutEvery > 0 {
			report([]string{"cluster.security", "network.cut.every"},
				"network.cut.every needs the proxies to read Kafka requests, which cluster.security=%s encrypts; use plaintext or sasl_plaintext for connection cuts", mode)
		}
		for _, f := range e.Faults {
			if f.Type == FaultConnectionCut {
				report([]string{"cluster.security", "faults"},
					"fault %s needs the proxies to read Kafka requests, which cluster.security=%s encrypts; use plaintext or sasl_plaintext for connection cuts", FaultConnectionCut, mode)
				break
			}
		}
	}
	checkSecurityOverrides(e, report)
	if v, ok := maven.ParseVersion(e.Cluster.Kafka); UsesSASL(mode) && ok && !v.AtLeast(scramSince[0], scramSince[1]) {
		report([]string{"cluster.security", "cluster.kafka"},
			"cluster.security=%s needs Kafka %d.%d or later (SCRAM users are added when the storage is formatted), got cluster.kafka %s", mode, scramSince[0], scramSince[1], e.Cluster.Kafka)
	}
}

// overriddenBySecurity are the producer settings a secured embedded
// cluster sets itself (cluster.ClientProps, in the Java client's words,
// which the librdkafka driver translates into its own): a user's value,
// in either client's words, would be silently replaced. TLS sets the
// trust store, SASL the login; both the protocol.
var overriddenBySecurity = struct{ always, tls, sasl []string }{
	always: []string{kafkaconf.SecurityProtocol},
	tls: []string{"ssl.truststore.type", "ssl.truststore.certificates", "ssl.truststore.location",
		"ssl.ca.pem", "ssl.ca.location"}, // librdkafka's words
	sasl: []string{"sasl.mechanism", "sasl.jaas.config",
		"sasl.mechanisms", "sasl.username", "sasl.password"}, // librdkafka's words
}

// checkSecurityOverrides reports producer settings that cluster.security
// replaces, so that a user who wrote them learns they are not used.
func checkSecurityOverrides(e *Experiment, report reportFunc) {
	mode := e.Cluster.Security
	if mode == "" || mode == SecurityPlaintext {
		return
	}
	keys := overriddenBySecurity.always
	if UsesTLS(mode) {
		keys = append(slices.Clone(keys), overriddenBySecurity.tls...)
	}
	if UsesSASL(mode) {
		keys = append(slices.Clone(keys), overriddenBySecurity.sasl...)
	}
	for _, k := range keys {
		if _, set := e.Producer[k]; set {
			report([]string{producerPrefix + k, "cluster.security"},
				"producer setting %s is set by cluster.security=%s (prodlab's brokers, their SCRAM user and CA); drop it, or drop cluster.security and use --bootstrap for a cluster secured your way", k, mode)
		}
	}
}

// withSecurity adds cluster.security to the cluster section of a YAML
// document when it is not the default, so that files written before the
// setting existed (and their golden copies) keep their form.
func withSecurity(doc yaml.MapSlice, mode string) yaml.MapSlice {
	if mode == "" || mode == SecurityPlaintext {
		return doc
	}
	for i, item := range doc {
		if item.Key == "cluster" {
			if sec, ok := item.Value.(yaml.MapSlice); ok {
				sec = append(sec, yaml.MapItem{Key: "security", Value: mode})
				doc[i].Value = sec
			}
		}
	}
	return doc
}
