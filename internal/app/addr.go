package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/prodlab/prodlab/internal/secret"
)

// ParseBootstrap reads a bootstrap list, HOST:PORT[,HOST:PORT...], as
// given to --bootstrap, --bootstrap-server or bootstrap.servers, and
// returns the addresses in order. It exists so that a mistyped address is
// refused before anything starts, with a message saying how to write it,
// rather than found minutes later as a connection that never succeeds (or
// never found: a list of only commas used to mean "no list").
//
// Each address needs a host (a name, an IPv4 address, or an IPv6 address
// in brackets: [::1]:9092) and a port in 1..65535. Blanks around an
// address are dropped, as the Java client drops them; an empty entry is a
// mistake. The messages do not name the flag: callers add it, and they
// never show a password written into an address (user:pass@host:port).
func ParseBootstrap(s string) ([]string, error) {
	addrs, err := parseBootstrap(s)
	if err != nil {
		return nil, errors.New(secret.RedactUserinfo(err.Error()))
	}
	return addrs, nil
}

// parseBootstrap is ParseBootstrap before its messages are redacted.
func parseBootstrap(s string) ([]string, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("no address given: write HOST:PORT[,HOST:PORT], e.g. 127.0.0.1:9092")
	}
	entries := strings.Split(s, ",")
	addrs := make([]string, 0, len(entries))
	for i, e := range entries {
		e = strings.TrimSpace(e)
		if e == "" {
			return nil, fmt.Errorf("address %d of %q is empty: separate HOST:PORT addresses with single commas", i+1, s)
		}
		if err := checkHostPort(e); err != nil {
			return nil, err
		}
		addrs = append(addrs, e)
	}
	return addrs, nil
}

// checkHostPort checks one HOST:PORT address.
func checkHostPort(addr string) error {
	if strings.Contains(addr, "@") {
		return fmt.Errorf("address %q holds credentials before its '@': a bootstrap address is HOST:PORT; give credentials with sasl.jaas.config", addr)
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return hostPortSyntaxError(addr)
	}
	if err := checkHost(addr, host); err != nil {
		return err
	}
	return checkPort(addr, port)
}

// hostPortSyntaxError explains the most likely mistake in an address that
// does not split into host and port: a URL's scheme, a missing port, or
// an IPv6 address without brackets.
func hostPortSyntaxError(addr string) error {
	if _, rest, ok := strings.Cut(addr, "://"); ok {
		return fmt.Errorf("address %q is not HOST:PORT: drop the scheme (%s)", addr, rest)
	}
	if strings.Count(addr, ":") > 1 && !strings.HasPrefix(addr, "[") {
		return fmt.Errorf("address %q: write an IPv6 address in brackets, e.g. [::1]:9092", addr)
	}
	if !strings.Contains(addr, ":") {
		return fmt.Errorf("address %q has no port: write HOST:PORT, e.g. %s:9092", addr, addr)
	}
	return fmt.Errorf("address %q is not HOST:PORT (e.g. 127.0.0.1:9092)", addr)
}

// checkHost checks the host part of addr: present, an IPv6 address only
// where it was bracketed, otherwise a name or address made of letters,
// digits, '.', '-' and '_'.
func checkHost(addr, host string) error {
	if host == "" {
		return fmt.Errorf("address %q has no host: write HOST:PORT, e.g. 127.0.0.1%s", addr, addr)
	}
	if strings.HasPrefix(addr, "[") {
		if !strings.Contains(host, ":") || net.ParseIP(host) == nil {
			return fmt.Errorf("address %q: %q is not an IPv6 address (brackets are for IPv6 only)", addr, host)
		}
		return nil
	}
	for _, r := range host {
		if !isHostRune(r) {
			return fmt.Errorf("address %q: host %q contains %q; a host is a name or an IP address", addr, host, r)
		}
	}
	return nil
}

// isHostRune reports whether r may appear in a host name or IPv4 address.
func isHostRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_'
}

// checkPort checks the port part of addr: a decimal number in 1..65535.
func checkPort(addr, port string) error {
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 || strings.HasPrefix(port, "+") {
		return fmt.Errorf("address %q: port %q must be a number in 1..65535", addr, port)
	}
	return nil
}

// reachTimeout bounds Reachable: a broker that answers at all accepts a
// TCP connection within milliseconds, even across regions.
const reachTimeout = 5 * time.Second

// Reachable fails when no address of a bootstrap list accepts a TCP
// connection within reachTimeout, naming each address and why: a closed
// port, an unknown host or a dropped packet is said within seconds rather
// than found after a trial's timeout (30 minutes by default for perf). It
// connects at the TCP level only, so it needs none of the credentials or
// TLS the producer's own properties may carry; the addresses are tried at
// once.
func Reachable(ctx context.Context, addrs []string) error {
	ctx, cancel := context.WithTimeout(ctx, reachTimeout)
	defer cancel()
	errs := make([]error, len(addrs))
	var wg sync.WaitGroup
	for i, a := range addrs {
		wg.Go(func() {
			var d net.Dialer
			c, err := d.DialContext(ctx, "tcp", a)
			if err == nil {
				_ = c.Close() // a probe: nothing was sent
				cancel()      // one answer is enough
			}
			errs[i] = err
		})
	}
	wg.Wait()
	if slices.Contains(errs, nil) {
		return nil
	}
	why := make([]string, len(addrs))
	for i, err := range errs {
		why[i] = dialReason(addrs[i], err)
	}
	return fmt.Errorf("no broker answers at %s (%s): is the cluster up, and is this its address?",
		strings.Join(addrs, ","), strings.Join(why, "; "))
}

// dialReason says in a few words why addr refused a connection.
func dialReason(addr string, err error) string {
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return addr + ": connection refused"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Sprintf("%s: no answer within %s", addr, reachTimeout)
	}
	if dnsErr, ok := errors.AsType[*net.DNSError](err); ok {
		return fmt.Sprintf("%s: host %s not found", addr, dnsErr.Name)
	}
	return secret.RedactUserinfo(err.Error())
}
