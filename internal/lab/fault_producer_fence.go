package lab

import (
	"context"
	"fmt"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/spec"
)

// fenceTimeout bounds one id's registration.
const fenceTimeout = 10 * time.Second

// A second producer registers each transactional id (InitProducerId, as a
// restarted application instance would): the coordinator bumps the id's
// epoch and aborts its open transaction, and the trial's producer is
// fenced. The second producer writes nothing and closes.
func init() {
	registerFault(spec.FaultProducerFence, faultAction{fence: func(ctx context.Context, t *Target, bootstrap, ids []string) error {
		for _, id := range ids {
			if err := fenceID(ctx, t, bootstrap, id); err != nil {
				return err
			}
		}
		return nil
	}})
}

// fenceID registers id with a client of its own, through the target's
// connection options (TLS, SASL).
func fenceID(ctx context.Context, t *Target, bootstrap []string, id string) error {
	opts := append([]kgo.Opt{kgo.SeedBrokers(bootstrap...), kgo.TransactionalID(id)}, t.conn.opts...)
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return fmt.Errorf("fencing producer for %s: %w", id, err)
	}
	defer cl.Close()
	fctx, cancel := context.WithTimeout(ctx, fenceTimeout)
	defer cancel()
	if _, _, err := cl.ProducerID(fctx); err != nil {
		return fmt.Errorf("register %s: %w", id, err)
	}
	return nil
}
