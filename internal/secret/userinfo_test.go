package secret

import "testing"

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
