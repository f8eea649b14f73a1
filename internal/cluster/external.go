package cluster

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
)

// connectTimeout bounds Connect when ctx has no deadline.
const connectTimeout = 15 * time.Second

// Connect describes an external cluster reachable at bootstrap (prodlab's
// --bootstrap): it lists the brokers from the metadata and guesses the
// version from their ApiVersions. Stop on the result does nothing; Kill,
// Restart, Pause, Resume and Shutdown return an error, since prodlab does
// not own those processes. opts reach a secured cluster (TLS, SASL).
func Connect(ctx context.Context, bootstrap []string, opts ...kgo.Opt) (*Cluster, error) {
	if len(bootstrap) == 0 {
		return nil, fmt.Errorf("connect: no bootstrap addresses")
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, connectTimeout)
		defer cancel()
	}
	a, err := NewAdmin(bootstrap, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: %w", strings.Join(bootstrap, ","), err)
	}
	defer a.Close()
	adm := a.Kadm()
	details, err := adm.ListBrokers(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect to %s: list brokers: %w", strings.Join(bootstrap, ","), err)
	}
	c := &Cluster{external: true, bootstrap: append([]string(nil), bootstrap...)}
	for _, d := range details {
		addr := net.JoinHostPort(d.Host, strconv.Itoa(int(d.Port)))
		c.brokers = append(c.brokers, Broker{ID: int(d.NodeID), Addr: addr, Advertised: addr})
	}
	if versions, err := adm.ApiVersions(ctx); err == nil {
		for _, v := range versions.Sorted() {
			if v.Err == nil {
				c.version = v.VersionGuess()
				break
			}
		}
	}
	return c, nil
}
