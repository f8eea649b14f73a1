package cli

import (
	"fmt"

	"github.com/prodlab/prodlab/internal/javaprops"
)

// readJavaProperties reads a Java properties file (kafka-producer-perf-test's
// --producer.config) into a map.
func readJavaProperties(path string) (map[string]string, error) {
	f, err := javaprops.Read(path)
	if err != nil {
		return nil, fmt.Errorf("producer config: %w", err)
	}
	return f.Props, nil
}
