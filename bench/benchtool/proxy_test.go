package main

import (
	"io"
	"strings"
	"testing"
)

// TestProxyArgs: the proxy subcommand refuses what it cannot serve before
// it listens.
func TestProxyArgs(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no target", []string{"-rtt", "10ms"}, "-target"},
		{"negative rtt", []string{"-target", "127.0.0.1:9092", "-rtt", "-1ms"}, "-rtt"},
		{"no bound", []string{"-target", "127.0.0.1:9092", "-for", "0s"}, "-for"},
		{"extra argument", []string{"-target", "127.0.0.1:9092", "x"}, "no other argument"},
		{"bad duration", []string{"-target", "127.0.0.1:9092", "-rtt", "soon"}, "invalid value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := proxy(tc.args, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("proxy %v: error %v, want one naming %q", tc.args, err, tc.want)
			}
		})
	}
}
