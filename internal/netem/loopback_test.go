package netem

import "testing"

// TestIsLoopback: the names and addresses of the loopback interface, and
// nothing else.
func TestIsLoopback(t *testing.T) {
	for _, tc := range []struct {
		host string
		want bool
	}{
		{"localhost", true},
		{"127.0.0.1", true},
		{"127.3.2.1", true},
		{"::1", true},
		{"0.0.0.0", false},
		{"10.0.0.5", false},
		{"kafka-1", false},
		{"", false},
	} {
		if got := IsLoopback(tc.host); got != tc.want {
			t.Errorf("IsLoopback(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}
