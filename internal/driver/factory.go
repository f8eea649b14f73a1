package driver

import (
	"context"
	"fmt"

	"github.com/prodlab/prodlab/internal/clients"
)

// kind is the driver side of a client kind (clients.Kinds): how to check
// its producer properties before anything starts and how to start it. Each
// driver registers its own (franz.go, java.go); TestKindsRegistered checks
// that every client kind has one.
type kind struct {
	// check rejects properties the client cannot honour; name is the client
	// name as written, for messages.
	check func(name string, props map[string]string) error
	// start starts the driver for a release of the client's library (the
	// brokers' release for unversioned kinds, which may ignore it). A
	// worker JVM starts from workerJar, logging into logDir ("" for none).
	start func(ctx context.Context, release, workerJar, logDir string) (Driver, error)
	// worker: the client runs in the Java worker JVM, whose jar must exist.
	worker bool
	// resolve, for versioned kinds, checks before anything starts that a
	// release exists and is supported, and fetches it (client is the name
	// as written); nil when there is nothing to check.
	resolve func(ctx context.Context, client, version string) error
	// notes explains how the driver applies a file of settings (the
	// "explain" of the client's mapping table): an intro line and a note
	// per setting, "" where there is nothing to say; nil for none.
	notes func(props map[string]string) (intro string, per map[string]string)
	// service, for a kind whose library is in prodlab's own binary, is that
	// library as a protocol worker of its own (`prodlab worker KIND`, what
	// a Trogdor agent runs); nil for the others.
	service func() WorkerService
}

// kinds maps clients.Kind names to their drivers.
var kinds = map[string]kind{}

// register adds the driver of a client kind; it runs from init functions.
func register(name string, k kind) {
	if _, dup := kinds[name]; dup {
		panic("driver: client kind registered twice: " + name)
	}
	kinds[name] = k
}

// lookup parses a client name and finds its driver.
func lookup(client string) (clients.Client, kind, error) {
	c, err := clients.Parse(client)
	if err != nil {
		return c, kind{}, err
	}
	k, ok := kinds[c.Kind.Name]
	if !ok {
		return c, kind{}, fmt.Errorf("client %s has no driver", c.Kind.Name)
	}
	return c, k, nil
}

// NeedsWorker reports whether a client name's driver runs in the Java
// worker JVM, so that its jar must be built.
func NeedsWorker(client string) bool {
	_, k, err := lookup(client)
	return err == nil && k.worker
}

// Check rejects, before anything starts, producer properties the named
// client cannot honour.
func Check(client string, props map[string]string) error {
	_, k, err := lookup(client)
	if err != nil {
		return err
	}
	return k.check(client, props)
}

// Release is the release of the client's library a client name selects:
// VERSION for kind@VERSION, else brokerRelease (the brokers' release, or the
// default release when theirs is unknown).
func Release(client, brokerRelease string) string {
	c, _ := clients.Parse(client)
	return c.Release(brokerRelease)
}

// Key names the driver instance a client needs: one per client kind and,
// for versioned kinds, per release (one worker JVM each for Java).
func Key(client, brokerRelease string) string {
	c, err := clients.Parse(client)
	if err != nil || !c.Kind.Versioned {
		return client
	}
	return c.Kind.Name + "@" + c.Release(brokerRelease)
}

// New starts the driver for a client name.
func New(ctx context.Context, client, brokerRelease, workerJar, logDir string) (Driver, error) {
	c, k, err := lookup(client)
	if err != nil {
		return nil, err
	}
	return k.start(ctx, c.Release(brokerRelease), workerJar, logDir)
}

// BuiltinWorker is the worker service prodlab's own binary serves for a
// client (`prodlab worker CLIENT`): a kind that registered one (franz-go);
// false for a kind whose library is not in this binary.
func BuiltinWorker(client string) (WorkerService, bool) {
	_, k, err := lookup(client)
	if err != nil || k.service == nil {
		return WorkerService{}, false
	}
	return k.service(), true
}

// SettingNotes explains how the named client's driver applies a file of
// producer settings, for advice.properties (report.SettingNotes): franz-go
// names the kgo option of each setting, librdkafka its canonical name
// where the file uses another; the Java client takes the names as they are.
func SettingNotes(client string, props map[string]string) (string, map[string]string) {
	_, k, err := lookup(client)
	if err != nil || k.notes == nil {
		return "", nil
	}
	return k.notes(props)
}
