package lab

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/cluster"
	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/expfile"
	"github.com/prodlab/prodlab/internal/kafkaconf"
	"github.com/prodlab/prodlab/internal/results"
)

// connection is how every client of a target reaches its brokers: the Java
// properties added to each trial's producer properties (a secured embedded
// cluster's security.protocol, truststore and SCRAM login), and the
// franz-go options of prodlab's own clients (admin, audit). Both are empty
// for a plaintext cluster.
type connection struct {
	props map[string]string
	opts  []kgo.Opt
}

// externalConnection gives prodlab's own clients of an existing cluster
// (--bootstrap) the security settings among the producer properties that
// reach it: users secure such a cluster's clients with producer properties,
// and the admin client and the audit must log in the same way. A secured
// connection is checked with one request, so that a wrong password or an
// untrusted certificate is named instead of timing out later. lenient
// (prodlab perf, whose Java client may use settings franz-go cannot read,
// such as a JKS truststore) leaves prodlab's own clients without security
// settings it cannot map, as before, instead of refusing.
func externalConnection(ctx context.Context, bootstrap []string, producer map[string]string, lenient bool) (connection, error) {
	opts, err := driver.SecurityOpts(producer)
	if err != nil && lenient {
		return connection{}, nil
	}
	if err != nil {
		return connection{}, fmt.Errorf("security properties for prodlab's own clients: %w", err)
	}
	if len(opts) > 0 {
		if err := cluster.Probe(ctx, bootstrap, opts...); err != nil {
			return connection{}, fmt.Errorf("with the producer's security properties: %w", err)
		}
	}
	return connection{opts: opts}, nil
}

// embeddedConnection is the connection to an embedded cluster, checked with
// one request so that a broken TLS or SASL setup fails the start with the
// step that failed instead of a later timeout.
func embeddedConnection(ctx context.Context, c *cluster.Cluster, bootstrap []string) (connection, error) {
	conn := connection{props: c.ClientProps(), opts: c.ClientOpts()}
	if c.Security() == cluster.SecurityPlaintext {
		return conn, nil
	}
	if err := cluster.Probe(ctx, bootstrap, conn.opts...); err != nil {
		return conn, fmt.Errorf("cluster.security=%s: %w", c.Security(), err)
	}
	return conn, nil
}

// secure sets the target's connection once its brokers are reachable.
func (t *Target) secure(ctx context.Context) error {
	var err error
	if t.c != nil && t.c.Embedded() {
		t.conn, err = embeddedConnection(ctx, t.c, t.bootstrap)
	}
	return err
}

// usesTLS reports whether producer settings ask for TLS.
func usesTLS(p kafkaconf.Producer) bool {
	return strings.HasSuffix(p.SecurityProtocol.V, "SSL")
}

// checkExternalSecurity adds what an existing cluster cannot do with
// security: cluster.security only secures embedded brokers, and proxies
// cannot rewrite the metadata of a TLS cluster they cannot read, which an
// existing cluster's clients need to stay behind them.
func checkExternalSecurity(sc expfile.Scenario, p *problems) {
	if m := sc.Exp.Cluster.Security; m != "" && m != expfile.SecurityPlaintext {
		p.add("cluster.security secures the listener of brokers prodlab starts; for an existing cluster give its security.protocol, ssl.* and sasl.* as producer properties (drop cluster.security or --bootstrap)", label(sc))
	}
	if usesTLS(sc.Exp.Settings()) && needsProxies([]expfile.Scenario{sc}) {
		p.add("network emulation of an existing TLS cluster: the proxies cannot rewrite broker addresses inside TLS (run it on an embedded cluster with cluster.security instead)", label(sc))
	}
}

// unreadUnderTLS marks the proxy figures that need Kafka's framing as not
// measured (NaN) when the scenario's connections are TLS: the proxies pass
// them through unread (netem's passthrough mode), so their zero counts
// would be read as "no produce requests". Connections and bytes stay.
func unreadUnderTLS(n *results.Network, e expfile.Experiment) {
	if !expfile.UsesTLS(e.Cluster.Security) {
		return
	}
	nan := math.NaN()
	n.ProduceRequests, n.MaxInFlight, n.MeanInFlight, n.MeanRequestBytes = nan, nan, nan, nan
	n.RTTP50Ms, n.RTTP99Ms = nan, nan
}
