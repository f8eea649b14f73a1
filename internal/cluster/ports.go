package cluster

import (
	"fmt"
	"net"
	"strings"
)

// freePorts returns n distinct free TCP ports on the loopback address, each
// still held by a listener until release is called. Start holds them while
// it puts proxies in front of the nodes (Config.Advertise and friends bind
// loopback ports of their own, and must not be given a node's port), and
// releases them just before the nodes bind; the window left between release
// and bind is covered by retrying once on a bind error.
func freePorts(n int) (ports []int, release func(), err error) {
	ports = make([]int, 0, n)
	listeners := make([]net.Listener, 0, n)
	release = func() {
		for _, l := range listeners {
			_ = l.Close()
		}
		listeners = nil
	}
	for range n {
		l, err := net.Listen("tcp", loopback+":0")
		if err != nil {
			release()
			return nil, nil, fmt.Errorf("find a free port on %s: %w", loopback, err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, release, nil
}

// isBindError reports whether a broker log or tool output shows that a port
// was taken between choosing it and binding it.
func isBindError(output string) bool {
	return strings.Contains(output, "Address already in use") || strings.Contains(output, "BindException")
}
