package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prodlab/prodlab/internal/netem"
)

// proxy serves prodlab's emulated link (netem) in front of one broker, in a
// process of its own, until SIGTERM, SIGINT or its bound: bench/cost.sh's
// pipe-bound comparisons send both sides through it, so that the round
// trip is their bottleneck and neither side's CPU pays for the proxy. It
// prints the address clients bootstrap from; the broker's address in
// metadata is rewritten to it.
func proxy(args []string, out io.Writer) error {
	fs := flag.NewFlagSet("proxy", flag.ContinueOnError)
	target := fs.String("target", "", "the broker's address as it advertises itself (HOST:PORT on loopback)")
	rtt := fs.Duration("rtt", 100*time.Millisecond, "round trip added between client and broker")
	bound := fs.Duration("for", 2*time.Hour, "how long to serve at most")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *target == "" || fs.NArg() > 0 || *rtt < 0 || *bound <= 0 {
		return errors.New("proxy: give -target HOST:PORT (and -rtt ≥ 0, -for > 0), no other argument")
	}
	set := netem.NewSet()
	addr, err := set.Add(0, *target)
	if err != nil {
		return err
	}
	defer func() { _ = set.Close() }()
	set.SetConfig(netem.Config{RTT: *rtt, Rewrite: set.Rewriter()})
	if _, err := fmt.Fprintln(out, addr); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	select {
	case <-ctx.Done():
	case <-time.After(*bound):
	}
	return nil
}
