package cluster

import (
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
)

// freePorts returns n distinct free TCP ports on the loopback address, each
// still held by a listener until release is called. Start holds them while
// it puts proxies in front of the nodes (Config.Advertise and friends bind
// loopback ports of their own, and must not be given a node's port), and
// releases them just before the nodes bind; the window left between release
// and bind is covered by retrying once on a bind error.
//
// The ports lie below the kernel's ephemeral range (portsBelow): a broker
// gives its port up whenever a fault stops it, and a port in the range can
// be taken meanwhile as the source port of any outgoing connection — the
// proxy dialing the stopped broker can even pick the broker's own port and
// connect to itself (a TCP self-connect) — and the broker then cannot bind
// it again when it restarts.
func freePorts(n int) (ports []int, release func(), err error) {
	ports = make([]int, 0, n)
	listeners := make([]net.Listener, 0, n)
	release = func() {
		for _, l := range listeners {
			_ = l.Close()
		}
		listeners = nil
	}
	lo, hi := portsBelow()
	for tries := 0; len(ports) < n; tries++ {
		addr := loopback + ":0" // the kernel's choice, when the range below is too small
		if hi-lo >= 1000 && tries < 100*n {
			addr = net.JoinHostPort(loopback, strconv.Itoa(lo+rand.IntN(hi-lo)))
		}
		l, err := net.Listen("tcp", addr)
		if err != nil {
			if strings.HasSuffix(addr, ":0") {
				release()
				return nil, nil, fmt.Errorf("find a free port on %s: %w", loopback, err)
			}
			continue // taken: another
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, release, nil
}

// portsBelow is the range nodes' ports are drawn from, [lo, hi): from
// 20000 up to the start of the kernel's ephemeral range
// (/proc/sys/net/ipv4/ip_local_port_range, 32768 by default).
func portsBelow() (lo, hi int) {
	lo, hi = 20000, 32768
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				hi = n
			}
		}
	}
	return lo, hi
}

// isBindError reports whether a broker log or tool output shows that a port
// was taken between choosing it and binding it.
func isBindError(output string) bool {
	return strings.Contains(output, "Address already in use") || strings.Contains(output, "BindException")
}
