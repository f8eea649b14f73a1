package expfile

import "fmt"

// FaultConnectionCut names the connection cut: the proxies forward a produce
// request, swallow the broker's reply and close the client's connection.
const FaultConnectionCut = "connection.cut"

var connectionCut = FaultType{
	Name:   FaultConnectionCut,
	Fields: []string{"every", "at.ms"},
	Doc:    "the proxy forwards a produce request, swallows the reply and closes the connection: after every N-th produce request (every), or once at at.ms",
	Validate: func(f Fault) error {
		if f.Every > 0 && f.AtMs > 0 {
			return fmt.Errorf("fault %s takes every or at.ms, not both", FaultConnectionCut)
		}
		return nil
	},
}
