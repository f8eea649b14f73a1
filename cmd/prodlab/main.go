// Command prodlab measures what Kafka producer settings cost, on a real
// Kafka cluster, and whether data stays safe. See README.md.
package main

import (
	"os"

	"github.com/prodlab/prodlab/internal/cli"
)

func main() { os.Exit(cli.Main(os.Args[1:])) }
