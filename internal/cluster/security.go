package cluster

import (
	"context"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// Security modes of an embedded cluster's client listener (Config.Security);
// the same strings as spec's cluster.security. Both SASL modes use
// SCRAM-SHA-512.
const (
	SecurityPlaintext     = "plaintext"
	SecuritySSL           = "ssl"
	SecuritySASLPlaintext = "sasl_plaintext"
	SecuritySASLSSL       = "sasl_ssl"
)

// ScramUser is the SCRAM-SHA-512 user prodlab creates on a SASL cluster; its
// password is random per cluster and never printed.
const ScramUser = "prodlab"

// scramMechanism is the one SASL mechanism prodlab's clusters enable.
const scramMechanism = "SCRAM-SHA-512"

// clientListener is the name of the client listener when it is secured;
// a plaintext cluster keeps Kafka's conventional PLAINTEXT name.
const clientListener = "CLIENT"

// security is what a secured cluster's brokers and clients share: the mode,
// the cluster's own CA (TLS modes) and the SCRAM password (SASL modes). It
// is made once per cluster, so restarts keep the same certificates and
// credentials. Only the client listener is secured: the controller and
// inter-broker (REPLICATION) listeners stay plaintext on loopback.
type security struct {
	mode     string
	ca       *authority // nil without TLS
	password string     // "" without SASL
}

// newSecurity prepares the material for mode ("" is plaintext, which needs
// none and returns nil).
func newSecurity(mode string) (*security, error) {
	s := &security{mode: mode}
	switch mode {
	case "", SecurityPlaintext:
		return nil, nil
	case SecuritySSL, SecuritySASLPlaintext, SecuritySASLSSL:
	default:
		return nil, fmt.Errorf("security: unknown mode %q, want %s, %s, %s or %s",
			mode, SecurityPlaintext, SecuritySSL, SecuritySASLPlaintext, SecuritySASLSSL)
	}
	if s.tls() {
		ca, err := newAuthority()
		if err != nil {
			return nil, err
		}
		s.ca = ca
	}
	if s.sasl() {
		b := make([]byte, 24)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("security: SCRAM password: %w", err)
		}
		s.password = hex.EncodeToString(b)
	}
	return s, nil
}

// tls reports whether the client listener uses TLS.
func (s *security) tls() bool { return s.mode == SecuritySSL || s.mode == SecuritySASLSSL }

// sasl reports whether the client listener authenticates with SCRAM.
func (s *security) sasl() bool {
	return s.mode == SecuritySASLPlaintext || s.mode == SecuritySASLSSL
}

// protocol is the mode as Kafka's security.protocol spells it.
func (s *security) protocol() string { return strings.ToUpper(s.mode) }

// applyBroker turns the PLAINTEXT client listener of a node's properties into
// the secured CLIENT listener, with the node's certificate and the SCRAM
// server settings, and secures the DIRECT listener (if any) the same way.
// Other listeners are left as they are.
func (s *security) applyBroker(props map[string]string, nodeID int) error {
	for _, k := range []string{"listeners", "advertised.listeners"} {
		props[k] = strings.Replace(props[k], "PLAINTEXT://", clientListener+"://", 1)
	}
	props["listener.security.protocol.map"] = strings.Replace(props["listener.security.protocol.map"],
		"PLAINTEXT:PLAINTEXT", clientListener+":"+s.protocol(), 1)
	names := []string{clientListener}
	if strings.Contains(props["listener.security.protocol.map"], directListenerName+":PLAINTEXT") {
		props["listener.security.protocol.map"] = strings.Replace(props["listener.security.protocol.map"],
			directListenerName+":PLAINTEXT", directListenerName+":"+s.protocol(), 1)
		names = append(names, directListenerName)
	}
	var certPEM, keyPEM []byte
	if s.tls() {
		var err error
		if certPEM, keyPEM, err = s.ca.issue(fmt.Sprintf("prodlab-broker-%d", nodeID)); err != nil {
			return fmt.Errorf("certificate of node %d: %w", nodeID, err)
		}
	}
	for _, name := range names {
		prefix := "listener.name." + strings.ToLower(name) + "."
		if s.tls() {
			props[prefix+"ssl.keystore.type"] = "PEM"
			props[prefix+"ssl.keystore.certificate.chain"] = string(certPEM)
			props[prefix+"ssl.keystore.key"] = string(keyPEM)
			props[prefix+"ssl.truststore.type"] = "PEM"
			props[prefix+"ssl.truststore.certificates"] = string(s.ca.certPEM)
			props[prefix+"ssl.client.auth"] = "none"
		}
		if s.sasl() {
			props[prefix+"sasl.enabled.mechanisms"] = scramMechanism
			props[prefix+"scram-sha-512.sasl.jaas.config"] = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
		}
	}
	return nil
}

// formatArgs are the kafka-storage format arguments that create the SCRAM
// user in the cluster's bootstrap metadata (KIP-900, Kafka 3.5 and later),
// so it exists before the first client connects.
func (s *security) formatArgs() []string {
	if s == nil || !s.sasl() {
		return nil
	}
	return []string{"--add-scram", fmt.Sprintf("%s=[name=%s,password=%s]", scramMechanism, ScramUser, s.password)}
}

// javaProps are the Java client properties that reach the client listener.
// sasl.jaas.config and ssl.truststore.certificates are secrets to
// internal/secret, so they never reach results or logs.
func (s *security) javaProps() map[string]string {
	if s == nil {
		return nil
	}
	props := map[string]string{"security.protocol": s.protocol()}
	if s.tls() {
		props["ssl.truststore.type"] = "PEM"
		props["ssl.truststore.certificates"] = string(s.ca.certPEM)
	}
	if s.sasl() {
		props["sasl.mechanism"] = scramMechanism
		props["sasl.jaas.config"] = fmt.Sprintf(`org.apache.kafka.common.security.scram.ScramLoginModule required username="%s" password="%s";`, ScramUser, s.password)
	}
	return props
}

// kgoOpts are the franz-go options that reach the client listener: TLS
// trusting the cluster's CA, and SCRAM-SHA-512 as ScramUser.
func (s *security) kgoOpts() []kgo.Opt {
	if s == nil {
		return nil
	}
	var opts []kgo.Opt
	if s.tls() {
		pool := x509.NewCertPool()
		pool.AddCert(s.ca.cert)
		opts = append(opts, kgo.DialTLSConfig(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))
	}
	if s.sasl() {
		opts = append(opts, kgo.SASL(scram.Auth{User: ScramUser, Pass: s.password}.AsSha512Mechanism()))
	}
	return opts
}

// Security returns the cluster's security mode: plaintext for an external
// cluster (whose clients bring their own properties) and by default.
func (c *Cluster) Security() string {
	if c.sec == nil {
		return SecurityPlaintext
	}
	return c.sec.mode
}

// ClientProps returns the Java client properties that reach this cluster's
// client listener (security.protocol, the PEM truststore, the SCRAM login):
// nil for a plaintext or external cluster. The values include secrets.
func (c *Cluster) ClientProps() map[string]string { return c.sec.javaProps() }

// ClientOpts returns the franz-go options that reach this cluster's client
// listener (TLS, SASL): nil for a plaintext or external cluster.
func (c *Cluster) ClientOpts() []kgo.Opt { return c.sec.kgoOpts() }

// secure applies the mode to one broker's properties (applyBroker); nothing
// for a plaintext cluster or a controller-only node, which has no client
// listener.
func (s *security) secure(props map[string]string, node nodeSpec) error {
	if s == nil || !node.isBroker() {
		return nil
	}
	return s.applyBroker(props, node.ID)
}

// probeTimeout bounds Probe when ctx has no earlier deadline.
const probeTimeout = 10 * time.Second

// Probe sends one Metadata request to the first of bootstrap with opts and
// returns its error, naming the step that failed: a TLS handshake or a SASL
// authentication. Kafka clients retry such failures until their own
// timeouts, so a wrong password or an untrusted certificate would otherwise
// surface as a bare timeout much later.
func Probe(ctx context.Context, bootstrap []string, opts ...kgo.Opt) error {
	if len(bootstrap) == 0 {
		return errors.New("probe: no bootstrap addresses")
	}
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(bootstrap[0]), kgo.DialTimeout(5 * time.Second)}, opts...)...)
	if err != nil {
		return fmt.Errorf("probe %s: %w", bootstrap[0], err)
	}
	defer cl.Close()
	req := kmsg.NewPtrMetadataRequest()
	req.Topics = []kmsg.MetadataRequestTopic{}
	if _, err := req.RequestWith(ctx, cl.SeedBrokers()[0]); err != nil {
		return fmt.Errorf("connect to %s: %s: %w", bootstrap[0], failedStep(err), err)
	}
	return nil
}

// failedStep names the connection step an error comes from.
func failedStep(err error) string {
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	msg := err.Error()
	switch {
	case errors.Is(err, kerr.SaslAuthenticationFailed), strings.Contains(msg, "SASL"):
		return "SASL authentication failed (wrong user, password or mechanism?)"
	case errors.As(err, &certErr), errors.As(err, &recErr), strings.Contains(msg, "tls:"), strings.Contains(msg, "tls alert"):
		return "TLS handshake failed (plaintext client on a TLS listener, or an untrusted certificate?)"
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer (a TLS client on a plaintext listener, or a SASL listener that expected a handshake?)"
	default:
		return "metadata request failed"
	}
}
