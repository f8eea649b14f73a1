package lab

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/prodlab/prodlab/internal/expfile"
)

// fenceTimeout bounds one id's registration.
const fenceTimeout = 10 * time.Second

// A second producer registers each transactional id (InitProducerId, as a
// restarted application instance would): the coordinator bumps the id's
// epoch and aborts its open transaction, and the trial's producer is
// fenced. The second producer writes nothing and closes. Every id at once,
// so that a trial's producers are fenced together; and to its end even
// when the trial ends meanwhile (its producers end as the fence lands),
// bounded by fenceTimeout.
func init() {
	registerFault(expfile.FaultProducerFence, faultAction{fence: func(ctx context.Context, t *Target, bootstrap, ids []string) error {
		ctx = context.WithoutCancel(ctx)
		errs := make([]error, len(ids))
		var wg sync.WaitGroup
		for i, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = fenceID(ctx, t, bootstrap, id)
			}()
		}
		wg.Wait()
		return errors.Join(errs...)
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
