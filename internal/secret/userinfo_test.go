package secret

import (
	"slices"
	"testing"
)

// TestRedactUserinfo checks that credentials in addresses and URLs are
// hidden and that text without them is unchanged.
func TestRedactUserinfo(t *testing.T) {
	tests := []struct{ in, want string }{
		{"user:pass@host:9092", "[hidden]@host:9092"},
		{"a:1,user:pass@host:9092", "a:1,[hidden]@host:9092"},
		{"http://user:pass@host", "http://[hidden]@host"},
		{`got "https://u:p@ss@h:1/x"`, `got "https://[hidden]@h:1/x"`},
		{"http://host:8889", "http://host:8889"},
		{"127.0.0.1:9092", "127.0.0.1:9092"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := RedactUserinfo(tt.in); got != tt.want {
			t.Errorf("RedactUserinfo(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestShownAndUserinfoPasswords: a secret key's value is hidden whole; any
// other value keeps its text but not the password of a URL in it, and
// that password is collected for redacting it elsewhere.
func TestShownAndUserinfoPasswords(t *testing.T) {
	for _, tc := range []struct {
		key, v, shown string
		passwords     []string
	}{
		{"ssl.key.password", "hunter22", Hidden, nil},
		{"sasl.oauthbearer.token.endpoint.url", "https://app:S3cretPW@idp.example/token", "https://[hidden]@idp.example/token", []string{"S3cretPW"}},
		{"client.id", "plain", "plain", nil},
		{"sasl.oauthbearer.jwks.endpoint.url", "https://idp.example/keys", "https://idp.example/keys", nil},
	} {
		if got := Shown(tc.key, tc.v); got != tc.shown {
			t.Errorf("Shown(%s, %q) = %q, want %q", tc.key, tc.v, got, tc.shown)
		}
		if got := UserinfoPasswords(tc.v); !slices.Equal(got, tc.passwords) {
			t.Errorf("UserinfoPasswords(%q) = %q, want %q", tc.v, got, tc.passwords)
		}
	}
	if m := Mask(map[string]string{"x.url": "http://u:p4ss@h:1"}); m["x.url"] != "http://[hidden]@h:1" {
		t.Errorf("Mask kept a URL's password: %v", m)
	}
}
