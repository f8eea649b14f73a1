package expfile

import (
	"strings"
	"testing"
)

// TestSecurityRefused: every combination of cluster.security that cannot
// work is refused with the key's position and a reason.
func TestSecurityRefused(t *testing.T) {
	runRefusals(t, []refusal{
		{
			// a typo gets the closest mode
			name: "unknown mode",
			src:  "name: x\ncluster: {security: sasl_sll}\n",
			want: []string{`x.yaml:2:21: cluster.security must be one of plaintext, ssl, sasl_plaintext, sasl_ssl, got "sasl_sll"; did you mean "sasl_ssl"?`},
		},
		{
			// the proxies cannot find produce requests inside TLS
			name: "cut under tls",
			src:  "name: x\ncluster: {security: ssl}\nnetwork: {cut.every: 10}\n",
			want: []string{"x.yaml:2:11: network.cut.every needs the proxies to read Kafka requests, which cluster.security=ssl encrypts; use plaintext or sasl_plaintext for connection cuts"},
		},
		{
			// a matrix value names its scenario
			name: "cut fault under a tls axis",
			src:  "name: x\nfaults: [{type: connection.cut, every: 5}]\nmatrix: {security: [plaintext, sasl_ssl]}\n",
			want: []string{`x.yaml:3:32: scenario "security=sasl_ssl": fault connection.cut needs the proxies to read Kafka requests, which cluster.security=sasl_ssl encrypts; use plaintext or sasl_plaintext for connection cuts`},
		},
		{
			// SCRAM users are added by the storage tool from 3.5 on
			name: "scram before 3.5",
			src:  "name: x\ncluster: {kafka: 3.4.1, security: sasl_plaintext}\n",
			want: []string{"x.yaml:2:25: cluster.security=sasl_plaintext needs Kafka 3.5 or later (SCRAM users are added when the storage is formatted), got cluster.kafka 3.4.1"},
		},
	})
}

// TestSecurityAccepted: every mode parses, in any case, and only a
// non-default mode is written back by YAML.
func TestSecurityAccepted(t *testing.T) {
	tests := []struct {
		name, value, want string
		inYAML            bool
	}{
		{"default", "", "", false},                                 // omitted: "" means plaintext
		{"kafka spelling", "SASL_SSL", SecuritySASLSSL, true},      // Kafka's upper case
		{"plaintext named", "plaintext", SecurityPlaintext, false}, // the default is not written
		{"ssl", "ssl", SecuritySSL, true},
		{"sasl_plaintext on 3.9", "sasl_plaintext", SecuritySASLPlaintext, true},
		{"cut under sasl_plaintext", "sasl_plaintext\nnetwork: {cut.every: 3}", SecuritySASLPlaintext, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			src := "name: x\ncluster: {kafka: 3.9.1}\n"
			if tt.value != "" {
				src = "name: x\ncluster: {kafka: 3.9.1, security: " + strings.SplitN(tt.value, "\n", 2)[0] + "}\n"
				if rest := strings.SplitN(tt.value, "\n", 2); len(rest) == 2 {
					src += rest[1] + "\n"
				}
			}
			e, err := Parse("x.yaml", []byte(src), nil)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if e.Cluster.Security != tt.want {
				t.Errorf("security = %q, want %q", e.Cluster.Security, tt.want)
			}
			out, err := e.YAML()
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(string(out), "security: "+tt.want); got != tt.inYAML {
				t.Errorf("YAML has security: %v, want %v:\n%s", got, tt.inYAML, out)
			}
		})
	}
}
