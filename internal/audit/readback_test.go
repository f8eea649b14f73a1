package audit

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

func TestIncompleteErrorText(t *testing.T) {
	cause := errors.New("dial tcp 127.0.0.1:9092: connect: connection refused")
	tests := []struct {
		name string
		err  IncompleteError
		want string
	}{
		{
			// The shape from the design: some partitions complete, one not.
			name: "partly complete",
			err: IncompleteError{Topic: "t", Read: 123456, Total: 200000, Complete: []int32{0, 2},
				Stopped: map[int32]int64{1: 5000}, Cause: cause},
			want: "audit incomplete: read 123,456 of 200,000 records (partitions 0,2 complete; 1 stopped at offset 5,000): " + cause.Error(),
		},
		{
			// Nothing complete; stopped partitions listed in order.
			name: "none complete",
			err:  IncompleteError{Topic: "t", Read: 7, Total: 1000, Stopped: map[int32]int64{2: 3, 0: 1234567, 1: 3}, Cause: cause},
			want: "audit incomplete: read 7 of 1,000 records (no partition complete; 0 stopped at offset 1,234,567; 1 stopped at offset 3; 2 stopped at offset 3): " + cause.Error(),
		},
		{
			// Offsets never listed: nothing was verified.
			name: "not listed",
			err:  IncompleteError{Topic: "t", Total: -1, Cause: cause},
			want: `audit incomplete: nothing read from topic "t": ` + cause.Error(),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.err.Error(); got != tt.want {
				t.Errorf("Error() =\n%s\nwant\n%s", got, tt.want)
			}
			if !errors.Is(&tt.err, cause) {
				t.Error("errors.Is(err, cause) = false")
			}
		})
	}
}

func TestGroup(t *testing.T) {
	tests := []struct {
		n    int64
		want string
	}{
		{0, "0"},               // no separator below 1,000
		{999, "999"},           // still none
		{1000, "1,000"},        // first separator
		{123456, "123,456"},    // exact groups
		{1234567, "1,234,567"}, // two separators
		{-1234, "-1,234"},      // sign kept in front
	}
	for _, tt := range tests {
		if got := group(tt.n); got != tt.want {
			t.Errorf("group(%d) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestReadBackClosedPort points ReadBack at a port nobody listens on: it
// must return an *IncompleteError saying nothing was read, within ctx.
func TestReadBackClosedPort(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()

	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	c := NewChecker(testTag, 10, newTestOutcome(10).ack(span(0, 10)...))
	start := time.Now()
	err = ReadBack(ctx, []string{addr}, "audit-closed", c)
	if time.Since(start) > 10*time.Second {
		t.Errorf("ReadBack took %v against a closed port, want it bounded by ctx", time.Since(start))
	}
	var inc *IncompleteError
	if !errors.As(err, &inc) || inc.Total != -1 {
		t.Fatalf("ReadBack() = %v, want an *IncompleteError with nothing read", err)
	}
	if !strings.HasPrefix(err.Error(), `audit incomplete: nothing read from topic "audit-closed": listing start offsets`) {
		t.Errorf("error text %q", err)
	}
	t.Logf("error: %v", err)
	if want := (Result{Acked: 10, Lost: 10}); c.Result() != want {
		t.Errorf("partial Result() = %+v, want %+v", c.Result(), want)
	}
}

// TestReadBackArgs checks the argument errors, which need no cluster.
func TestReadBackArgs(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name      string
		bootstrap []string
		c         *Checker
		want      string
	}{
		// No servers to ask.
		{"no bootstrap", nil, NewChecker(testTag, 1, nil), "no bootstrap servers"},
		// Nothing to feed.
		{"nil checker", []string{"127.0.0.1:1"}, nil, "nil checker"},
	}
	for _, tt := range tests {
		err := ReadBack(ctx, tt.bootstrap, "t", tt.c)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ReadBack() = %v, want an error containing %q", tt.name, err, tt.want)
		}
	}
}
