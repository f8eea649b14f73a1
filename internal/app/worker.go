package app

import (
	"context"
	"fmt"
	"io"

	"github.com/prodlab/prodlab/internal/driver"
)

// ServeWorker runs franz-go as a worker process of its own (`prodlab
// worker franz-go serve|trogdor`): the worker protocol on in and out, or
// one trial as a Trogdor ExternalCommandSpec task's command, which is how
// a fleet's agents run franz-go (clients.Kind.FleetWorker). ctx ends a
// Trogdor trial (the agent's SIGTERM).
func ServeWorker(ctx context.Context, client, mode string, in io.Reader, out io.Writer) error {
	svc, ok := driver.BuiltinWorker(client)
	if !ok {
		return InputError{fmt.Errorf("worker: client %q has no worker in prodlab (franz-go has; librdkafka's is prodlab-librdkafka)", client)}
	}
	switch mode {
	case "serve":
		return svc.Serve(in, out)
	case "trogdor":
		return svc.ServeTrogdor(ctx, in, out)
	}
	return InputError{fmt.Errorf("worker: unknown mode %q (want serve or trogdor)", mode)}
}
