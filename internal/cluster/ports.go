package cluster

import (
	"fmt"
	"net"
	"strings"
)

// freePorts returns n distinct free TCP ports on the loopback address. All
// listeners are held open until every port is chosen, so the ports differ;
// there is still a window between closing them and the broker binding, which
// Start covers by retrying once on a bind error.
func freePorts(n int) ([]int, error) {
	ports := make([]int, 0, n)
	var listeners []net.Listener
	defer func() {
		for _, l := range listeners {
			_ = l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", loopback+":0")
		if err != nil {
			return nil, fmt.Errorf("find a free port on %s: %w", loopback, err)
		}
		listeners = append(listeners, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports, nil
}

// isBindError reports whether a broker log or tool output shows that a port
// was taken between choosing it and binding it.
func isBindError(output string) bool {
	return strings.Contains(output, "Address already in use") || strings.Contains(output, "BindException")
}
