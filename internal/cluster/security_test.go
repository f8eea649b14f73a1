package cluster

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	"github.com/prodlab/prodlab/internal/secret"
	"github.com/prodlab/prodlab/internal/testtier"
)

// parseChain decodes every CERTIFICATE block of a PEM chain.
func parseChain(t *testing.T, chainPEM []byte) []*x509.Certificate {
	t.Helper()
	var out []*x509.Certificate
	for rest := chainPEM; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			return out
		}
		c, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
}

// TestIssuedCertificateVerifies: a node certificate verifies against the
// cluster's CA for the names clients dial (127.0.0.1, localhost), and the
// check can fail: another CA, another host name, a client-auth usage.
func TestIssuedCertificateVerifies(t *testing.T) {
	ca, err := newAuthority()
	if err != nil {
		t.Fatal(err)
	}
	other, err := newAuthority()
	if err != nil {
		t.Fatal(err)
	}
	chainPEM, keyPEM, err := ca.issue("prodlab-broker-1")
	if err != nil {
		t.Fatal(err)
	}
	chain := parseChain(t, chainPEM)
	if len(chain) != 2 || !chain[1].Equal(ca.cert) {
		t.Fatalf("chain has %d certificates, want the node's then the CA's", len(chain))
	}
	if b, _ := pem.Decode(keyPEM); b == nil || b.Type != "PRIVATE KEY" {
		t.Fatalf("key is not an unencrypted PKCS#8 PEM block")
	} else if _, err := x509.ParsePKCS8PrivateKey(b.Bytes); err != nil {
		t.Fatalf("key: %v", err)
	}
	tests := []struct {
		name   string
		roots  *authority
		host   string
		usage  x509.ExtKeyUsage
		wantOK bool
	}{
		{"loopback IP", ca, "127.0.0.1", x509.ExtKeyUsageServerAuth, true},
		{"localhost", ca, "localhost", x509.ExtKeyUsageServerAuth, true},
		{"another CA", other, "127.0.0.1", x509.ExtKeyUsageServerAuth, false},        // untrusted issuer
		{"another host", ca, "kafka.example.com", x509.ExtKeyUsageServerAuth, false}, // name mismatch
		{"client usage", ca, "127.0.0.1", x509.ExtKeyUsageClientAuth, false},         // server certificate only
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			roots := x509.NewCertPool()
			roots.AddCert(tt.roots.cert)
			_, err := chain[0].Verify(x509.VerifyOptions{Roots: roots, DNSName: tt.host, KeyUsages: []x509.ExtKeyUsage{tt.usage}})
			if (err == nil) != tt.wantOK {
				t.Errorf("Verify = %v, want ok %v", err, tt.wantOK)
			}
		})
	}
}

// TestSecureBrokerProps: each mode renames the client listener, maps it to
// its protocol and adds only the settings it needs; controller and
// replication listeners stay plaintext.
func TestSecureBrokerProps(t *testing.T) {
	nodes := []nodeSpec{{ID: 1, ClientPort: 9001, ControllerPort: 9002, Repl: []replListener{{Name: "REPLICATION", Port: 9003}}, Advertised: "127.0.0.1:9101", DirectPort: 9004}}
	tests := []struct {
		mode     string
		protocol string
		tls      bool
		sasl     bool
	}{
		{SecuritySSL, "SSL", true, false},
		{SecuritySASLPlaintext, "SASL_PLAINTEXT", false, true},
		{SecuritySASLSSL, "SASL_SSL", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.mode, func(t *testing.T) {
			s, err := newSecurity(tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			props := brokerProps(nodes, nodes[0], nil)
			if err := s.secure(props, nodes[0]); err != nil {
				t.Fatal(err)
			}
			if got := props["listeners"]; !strings.HasPrefix(got, "CLIENT://127.0.0.1:9001,") {
				t.Errorf("listeners = %s", got)
			}
			if got := props["advertised.listeners"]; !strings.HasPrefix(got, "CLIENT://127.0.0.1:9101,") {
				t.Errorf("advertised.listeners = %s", got)
			}
			want := "CLIENT:" + tt.protocol + ",CONTROLLER:PLAINTEXT,REPLICATION:PLAINTEXT,DIRECT:" + tt.protocol
			if got := props["listener.security.protocol.map"]; got != want {
				t.Errorf("protocol map = %s, want %s", got, want)
			}
			// The DIRECT listener (no proxy in front) is secured like CLIENT.
			for _, name := range []string{"client", "direct"} {
				_, hasKey := props["listener.name."+name+".ssl.keystore.key"]
				_, hasSCRAM := props["listener.name."+name+".sasl.enabled.mechanisms"]
				if hasKey != tt.tls || hasSCRAM != tt.sasl {
					t.Errorf("%s: keystore %v, SCRAM %v; want %v, %v", name, hasKey, hasSCRAM, tt.tls, tt.sasl)
				}
			}
			if (len(s.formatArgs()) > 0) != tt.sasl {
				t.Errorf("format args %d, want SCRAM user only with SASL", len(s.formatArgs()))
			}
			jp := s.javaProps()
			if jp["security.protocol"] != tt.protocol || (jp["sasl.jaas.config"] != "") != tt.sasl || (jp["ssl.truststore.certificates"] != "") != tt.tls {
				t.Errorf("java props do not match the mode: security.protocol=%s", jp["security.protocol"])
			}
		})
	}
	if s, err := newSecurity(""); s != nil || err != nil {
		t.Errorf("plaintext: %v, %v; want no material", s, err)
	}
	if _, err := newSecurity("kerberos"); err == nil {
		t.Error("unknown mode accepted")
	}
}

// TestSecureClusters starts a cluster per secured mode and produces to it
// with the cluster's own client options, and shows that a client without
// them, or with a wrong SCRAM password, is refused with a clear error.
func TestSecureClusters(t *testing.T) {
	testtier.Shared(t)
	for _, mode := range []string{SecuritySSL, SecuritySASLSSL, SecuritySASLPlaintext} {
		t.Run(mode, func(t *testing.T) {
			c := startCluster(t, Config{Brokers: 1, Security: mode})
			if got := c.Security(); got != mode {
				t.Errorf("Security() = %s", got)
			}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			a, err := NewAdmin(c.Bootstrap(), c.ClientOpts()...)
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if err := a.CreateTopic(ctx, "sec", 1, 1, nil); err != nil {
				t.Fatalf("create topic with the cluster's options: %v", err)
			}
			if err := produceOne(ctx, c.Bootstrap(), c.ClientOpts()...); err != nil {
				t.Fatalf("produce with the cluster's options: %v", err)
			}
			if strings.HasPrefix(mode, "sasl") {
				opts := withoutSASL(c)
				opts = append(opts, kgo.SASL(scram.Auth{User: ScramUser, Pass: "wrong"}.AsSha512Mechanism()))
				err := Probe(ctx, c.Bootstrap(), opts...)
				if err == nil || !strings.Contains(err.Error(), "SASL authentication failed") {
					t.Errorf("wrong password: %v, want SASL authentication failed", err)
				}
				t.Logf("wrong password: %v", err)
			}
			if err := Probe(ctx, c.Bootstrap(), c.ClientOpts()...); err != nil {
				t.Errorf("probe with the cluster's options: %v", err)
			}
			err = Probe(ctx, c.Bootstrap())
			if err == nil {
				t.Errorf("a plaintext client was let in")
			}
			t.Logf("plaintext client: %v", err)
			checkRedactedOnStop(t, c)
		})
	}
}

// checkRedactedOnStop stops c and checks that no node's server.properties
// still holds a private key, a certificate or a SCRAM login: the run
// directory is shared, the broker has no more use for them.
func checkRedactedOnStop(t *testing.T, c *Cluster) {
	t.Helper()
	if err := c.Stop(); err != nil {
		t.Fatal(err)
	}
	for _, n := range c.allNodes() {
		data, err := os.ReadFile(n.config)
		if err != nil {
			t.Fatal(err)
		}
		for _, leak := range []string{"PRIVATE KEY", "BEGIN CERTIFICATE", "password=\"", ScramUser + "\""} {
			if strings.Contains(string(data), leak) {
				t.Errorf("node %d's server.properties still holds %q after Stop", n.spec.ID, leak)
			}
		}
		if !strings.Contains(string(data), secret.Hidden) {
			t.Errorf("node %d's server.properties shows no %s: was anything secret written?", n.spec.ID, secret.Hidden)
		}
	}
}

// withoutSASL returns the cluster's TLS options only.
func withoutSASL(c *Cluster) []kgo.Opt {
	if !c.sec.tls() {
		return nil
	}
	return (&security{mode: SecuritySSL, ca: c.sec.ca}).kgoOpts()
}

// produceOne produces one record to topic sec and waits for its ack, at
// most 15 s.
func produceOne(ctx context.Context, bootstrap []string, opts ...kgo.Opt) error {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(bootstrap...), kgo.DefaultProduceTopic("sec")}, opts...)...)
	if err != nil {
		return err
	}
	defer cl.Close()
	res := cl.ProduceSync(ctx, &kgo.Record{Value: []byte("x")})
	if err := res.FirstErr(); err != nil {
		return errors.Join(err)
	}
	return nil
}
