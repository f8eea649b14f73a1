package lab

import (
	"context"
	"fmt"
	"strings"

	"github.com/prodlab/prodlab/internal/driver"
)

// checkClient validates producer properties for a client before anything runs.
func checkClient(client string, props map[string]string) error {
	switch {
	case client == "franz-go":
		return driver.NewFranz().Check(props)
	case client == "java" || strings.HasPrefix(client, "java@"):
		return fmt.Errorf("client %s is not available in this build", client)
	default:
		return fmt.Errorf("unknown client %q (want franz-go, java or java@VERSION)", client)
	}
}

// driverFor returns the (cached) driver for a client name.
func (r *runner) driverFor(ctx context.Context, client, kafka string) (driver.Driver, error) {
	if d, ok := r.drivers[client]; ok {
		return d, nil
	}
	var d driver.Driver
	switch {
	case client == "franz-go":
		d = driver.NewFranz()
	default:
		return nil, fmt.Errorf("client %s is not available in this build", client)
	}
	r.drivers[client] = d
	return d, nil
}
