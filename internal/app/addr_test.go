package app

import (
	"context"
	"net"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseBootstrap(t *testing.T) {
	tests := []struct {
		in      string
		want    []string // nil when an error is expected
		wantErr string   // part of the message
	}{
		// one address, a list, blanks around entries dropped
		{"127.0.0.1:9092", []string{"127.0.0.1:9092"}, ""},
		{"a:1,b.example.com:65535", []string{"a:1", "b.example.com:65535"}, ""},
		{" h1:9092 , h_2:9093 ", []string{"h1:9092", "h_2:9093"}, ""},
		// IPv6 in brackets
		{"[::1]:9092", []string{"[::1]:9092"}, ""},
		{"[fe80::1]:1,localhost:2", []string{"[fe80::1]:1", "localhost:2"}, ""},
		// nothing at all
		{"", nil, "no address given"},
		{"   ", nil, "no address given"},
		// empty entries
		{",", nil, "is empty"},
		{"a:1,,b:2", nil, "address 2 of"},
		{"a:1,", nil, "is empty"},
		// no port, no host
		{"foo", nil, `"foo" has no port: write HOST:PORT, e.g. foo:9092`},
		{"127.0.0.1", nil, "has no port"},
		{":9092", nil, "has no host"},
		{"h:", nil, "must be a number in 1..65535"},
		// ports out of range or not numbers
		{"127.0.0.1:99999", nil, `port "99999" must be a number in 1..65535`},
		{"h:0", nil, "1..65535"},
		{"h:-1", nil, "1..65535"},
		{"h:+80", nil, "1..65535"},
		{"h:http", nil, "1..65535"},
		// IPv6 without brackets, brackets around something else
		{"::1:9092", nil, "in brackets"},
		{"[127.0.0.1]:9092", nil, "brackets are for IPv6 only"},
		{"[nothost]:9092", nil, "not an IPv6 address"},
		// hosts that are not names
		{"h o:1", nil, "contains ' '"},
		{"kafka://h:9092", nil, "not HOST:PORT"},
		{"h:1:2", nil, "in brackets"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseBootstrap(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("ParseBootstrap(%q) = %v, %v; want error containing %q", tt.in, got, err, tt.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("ParseBootstrap(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

// TestReachable: an address that accepts a TCP connection is enough; a
// list where none does fails at once, naming each address and why.
func TestReachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	open := ln.Addr().String()
	if err := Reachable(context.Background(), []string{"127.0.0.1:1", open}); err != nil {
		t.Errorf("Reachable with %s listening: %v", open, err)
	}
	start := time.Now()
	err = Reachable(context.Background(), []string{"127.0.0.1:1"})
	if err == nil || !strings.Contains(err.Error(), "no broker answers at 127.0.0.1:1 (127.0.0.1:1: connection refused)") {
		t.Errorf("Reachable(closed port) = %v", err)
	}
	if d := time.Since(start); d > reachTimeout {
		t.Errorf("took %s", d)
	}
}
