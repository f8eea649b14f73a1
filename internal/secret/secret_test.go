package secret

import (
	"slices"
	"strings"
	"testing"
)

func TestIsKey(t *testing.T) {
	tests := []struct {
		key  string
		want bool
	}{
		{"sasl.jaas.config", true},                                  // carries the password inline
		{"ssl.keystore.password", true},                             // a password by name
		{"ssl.key.password", true},                                  // likewise
		{"sasl.oauthbearer.client.credentials.client.secret", true}, // a secret by name
		{"ssl.keystore.key", true},                                  // a PEM private key
		{"SSL.TRUSTSTORE.PASSWORD", true},                           // case does not matter
		{"sasl.oauthbearer.assertion.private.key.passphrase", true}, // typed PASSWORD, no "password" in its name
		{"ssl.truststore.certificates", true},                       // typed PASSWORD by the client
		{"ssl.keystore.certificate.chain", true},                    // likewise
		{"some.other.passphrase", true},                             // a passphrase by name
		{"producer.ssl.truststore.certificates", true},              // a prefixed property name
		{"producer.ssl.keystore.location", false},                   // prefixed, not a secret
		{"linger.ms", false},                                        // an ordinary setting
		{"ssl.keystore.location", false},                            // a path, not a secret
	}
	for _, tt := range tests {
		if got := IsKey(tt.key); got != tt.want {
			t.Errorf("IsKey(%q) = %v, want %v", tt.key, got, tt.want)
		}
	}
}

func TestMask(t *testing.T) {
	in := map[string]string{"acks": "all", "sasl.jaas.config": `x password="p"`}
	out := Mask(in)
	if out["acks"] != "all" || out["sasl.jaas.config"] != Hidden {
		t.Errorf("Mask = %v", out)
	}
	if in["sasl.jaas.config"] == Hidden {
		t.Error("Mask changed its input")
	}
}

// TestJavaPasswordsAreKeys: every entry of the table is masked, whatever its
// name, and the table is lower case (IsKey lowers the key before the look-up).
func TestJavaPasswordsAreKeys(t *testing.T) {
	for _, k := range JavaPasswords {
		if !IsKey(k) || !IsKey(strings.ToUpper(k)) {
			t.Errorf("IsKey(%q) = false for a password-typed property", k)
		}
		if k != strings.ToLower(k) {
			t.Errorf("table entry %q is not lower case", k)
		}
	}
}

// TestSubstringRule: a property the Java client does not type as a
// password (another client's, a newer release's) is still a secret when
// its name contains "secret", "password" or "passphrase", in any case and
// anywhere in the name. Each key is checked to be outside JavaPasswords,
// so that only the substring rule can make it a secret.
func TestSubstringRule(t *testing.T) {
	tests := []struct {
		key  string
		want bool
	}{
		{"schema.registry.client.secret", true},        // "secret" at the end
		{"oauth.secret.value", true},                   // in the middle
		{"MY.SECRET", true},                            // upper case
		{"clientsecret", true},                         // inside a word
		{"basic.auth.user.password", true},             // "password"
		{"sasl.password.file", true},                   // in the middle
		{"key.store.PASSPHRASE", true},                 // "passphrase", upper case
		{"secre.t", false},                             // split: not the substring
		{"client.id", false},                           // an ordinary setting
		{"sasl.oauthbearer.token.endpoint.url", false}, // an ordinary OAuth setting
	}
	for _, tt := range tests {
		if isJavaPassword(strings.ToLower(tt.key)) {
			t.Fatalf("%q is in JavaPasswords: it does not test the substring rule", tt.key)
		}
		if got := IsKey(tt.key); got != tt.want {
			t.Errorf("IsKey(%q) = %v, want %v", tt.key, got, tt.want)
		}
	}
}

// TestJVMOpts: a -D property named like a secret has its value hidden;
// other options are kept, an address's credentials hidden.
func TestJVMOpts(t *testing.T) {
	in := []string{"-Xmx512M", "-Djavax.net.ssl.keyStorePassword=hunter22", "-Dapp.url=http://u:pw@h:1/x", "-Dplain=1"}
	want := []string{"-Xmx512M", "-Djavax.net.ssl.keyStorePassword=[hidden]", "-Dapp.url=http://[hidden]@h:1/x", "-Dplain=1"}
	if got := JVMOpts(in); !slices.Equal(got, want) {
		t.Errorf("JVMOpts = %q, want %q", got, want)
	}
}
