package spec

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
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

// scramSinceKafka is the first Kafka release whose storage tool adds SCRAM
// users at format time (KIP-900), which is how prodlab creates its user.
const scramSinceKafka = "3.5"

// checkSecurity normalizes a cluster.security value: one of SecurityModes,
// case-insensitive (Kafka's own spelling, SASL_SSL, is accepted too). An
// experiment that names none keeps "", which means plaintext everywhere.
func checkSecurity(raw, _ string) (string, error) {
	v := strings.ToLower(strings.TrimSpace(raw))
	for _, m := range SecurityModes {
		if v == m {
			return m, nil
		}
	}
	return "", fmt.Errorf("cluster.security must be one of %s, got %q%s",
		strings.Join(SecurityModes, ", "), raw, didYouMean(v, SecurityModes))
}

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
// a Kafka release older than scramSinceKafka.
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
	if UsesSASL(mode) && versionRE.MatchString(e.Cluster.Kafka) && olderThan(e.Cluster.Kafka, scramSinceKafka) {
		report([]string{"cluster.security", "cluster.kafka"},
			"cluster.security=%s needs Kafka %s or later (SCRAM users are added when the storage is formatted), got cluster.kafka %s", mode, scramSinceKafka, e.Cluster.Kafka)
	}
}

// olderThan compares the major.minor of a release version with min's.
func olderThan(version, min string) bool {
	a, b := majorMinor(version), majorMinor(min)
	if a[0] != b[0] {
		return a[0] < b[0]
	}
	return a[1] < b[1]
}

// majorMinor parses the first two numbers of a version ("3.9.1" → 3, 9).
func majorMinor(v string) [2]int {
	var out [2]int
	parts := strings.FieldsFunc(v, func(r rune) bool { return r == '.' || r == '-' })
	for i := 0; i < 2 && i < len(parts); i++ {
		out[i], _ = strconv.Atoi(parts[i])
	}
	return out
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
