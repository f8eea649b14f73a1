package driver

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// testCAPEM returns a self-signed CA certificate as PEM.
func testCAPEM(t *testing.T) string {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now(), NotAfter: time.Now().Add(time.Hour), IsCA: true, BasicConstraintsValid: true}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}))
}

// TestSecurityOpts: the Java client's security properties become franz-go
// options (TLS dialer, SASL), and what franz-go cannot do is refused with
// the property's name.
func TestSecurityOpts(t *testing.T) {
	ca := testCAPEM(t)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, []byte(ca), 0o600); err != nil {
		t.Fatal(err)
	}
	jaas := `org.apache.kafka.common.security.scram.ScramLoginModule required username="prodlab" password="s3cr\"et";`
	tests := []struct {
		name    string
		props   map[string]string
		opts    int    // kgo options made
		wantErr string // substring of the error, "" for none
	}{
		{"none", nil, 0, ""},
		{"plaintext", map[string]string{"security.protocol": "PLAINTEXT"}, 0, ""},
		{"ssl inline", map[string]string{"security.protocol": "SSL", "ssl.truststore.type": "PEM", "ssl.truststore.certificates": ca}, 1, ""},
		{"ssl file", map[string]string{"security.protocol": "ssl", "ssl.truststore.type": "PEM", "ssl.truststore.location": caFile}, 1, ""},
		{"ssl system roots", map[string]string{"security.protocol": "SSL"}, 1, ""},
		{"sasl_ssl scram", map[string]string{"security.protocol": "SASL_SSL", "ssl.truststore.type": "PEM", "ssl.truststore.certificates": ca, "sasl.mechanism": "SCRAM-SHA-512", "sasl.jaas.config": jaas}, 2, ""},
		{"sasl_plaintext plain", map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.jaas.config": jaas}, 1, ""},
		{"jks truststore", map[string]string{"security.protocol": "SSL", "ssl.truststore.type": "JKS", "ssl.truststore.location": caFile}, 0, "PEM truststores only"},
		{"no certificate", map[string]string{"security.protocol": "SSL", "ssl.truststore.certificates": "junk"}, 0, "no PEM certificate"},
		{"missing file", map[string]string{"security.protocol": "SSL", "ssl.truststore.type": "PEM", "ssl.truststore.location": caFile + ".none"}, 0, "ssl.truststore.location"},
		{"gssapi", map[string]string{"security.protocol": "SASL_SSL", "sasl.mechanism": "GSSAPI", "sasl.jaas.config": jaas}, 0, "GSSAPI"},
		{"no username", map[string]string{"security.protocol": "SASL_PLAINTEXT", "sasl.jaas.config": "x required;"}, 0, "no username"},
		{"bad protocol", map[string]string{"security.protocol": "TLS"}, 0, "security.protocol must be"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts, err := SecurityOpts(tt.props)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), `s3cr`) {
					t.Errorf("error shows the password: %v", err)
				}
				return
			}
			if err != nil || len(opts) != tt.opts {
				t.Fatalf("SecurityOpts = %d options, %v; want %d", len(opts), err, tt.opts)
			}
			// The producer takes the same properties.
			if err := NewFranz().Check(tt.props); err != nil {
				t.Errorf("Check: %v", err)
			}
		})
	}
}

// TestWithConnection: the target's properties win and the scenario's map
// is left alone (scenarios share it between trials).
func TestWithConnection(t *testing.T) {
	s := kafkaconf.Decode(map[string]string{"acks": "all", "security.protocol": "PLAINTEXT"})
	conn := map[string]string{"security.protocol": "SSL"}
	got := WithConnection(s, conn).Raw()
	if got["security.protocol"] != "SSL" || got["acks"] != "all" {
		t.Errorf("merged = %v", got)
	}
	if s.Raw()["security.protocol"] != "PLAINTEXT" {
		t.Errorf("scenario settings changed: %v", s.Raw())
	}
	if same := WithConnection(s, nil); !reflect.DeepEqual(same, s) {
		t.Errorf("no conn: %v", same.Raw())
	}
}
