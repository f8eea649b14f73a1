package driver

import (
	"context"
	"fmt"
	"strings"
)

// Client names: "franz-go", "java" (kafka-clients of the brokers' release)
// and "java@VERSION".
const franzName = "franz-go"

// IsJava reports whether a client name selects the official Java client.
func IsJava(client string) bool {
	return client == "java" || strings.HasPrefix(client, "java@")
}

// Check rejects, before anything starts, producer properties the named
// client cannot honour.
func Check(client string, props map[string]string) error {
	switch {
	case client == franzName:
		return NewFranz().Check(props)
	case IsJava(client):
		return CheckJava(client, props)
	default:
		return fmt.Errorf("unknown client %q (want franz-go, java or java@VERSION)", client)
	}
}

// JavaRelease is the kafka-clients release a Java client name selects:
// VERSION for java@VERSION, else brokerRelease (the brokers' release, or the
// default release when theirs is unknown).
func JavaRelease(client, brokerRelease string) string {
	if v, ok := strings.CutPrefix(client, "java@"); ok {
		return v
	}
	return brokerRelease
}

// Key names the driver instance a client needs: one per client and, for
// Java, per kafka-clients release (one worker JVM each).
func Key(client, brokerRelease string) string {
	if IsJava(client) {
		return "java@" + JavaRelease(client, brokerRelease)
	}
	return client
}

// New starts the driver for a client name. A Java client starts a worker
// JVM from workerJar, logging into logDir ("" for none).
func New(ctx context.Context, client, brokerRelease, workerJar, logDir string) (Driver, error) {
	switch {
	case client == franzName:
		return NewFranz(), nil
	case IsJava(client):
		v := JavaRelease(client, brokerRelease)
		j, err := NewJava(ctx, v, workerJar, logDir)
		if err != nil {
			return nil, fmt.Errorf("start the Java worker for kafka-clients %s: %w", v, err)
		}
		return j, nil
	default:
		return nil, fmt.Errorf("unknown client %q (want franz-go, java or java@VERSION)", client)
	}
}
