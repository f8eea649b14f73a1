// Command prodlab measures what Kafka producer settings cost, on a real
// Kafka cluster, and whether data stays safe. See README.md.
//
// $PRODLAB_CPUPROFILE, when set, names a file that prodlab writes a Go CPU
// profile of its whole run to (go tool pprof): the franz-go client runs in
// this process, so this is where its driver's own cost shows (bench/RESULTS.md §34).
package main

import (
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/prodlab/prodlab/internal/cli"
)

func main() { os.Exit(run()) }

func run() int {
	if path := os.Getenv("PRODLAB_CPUPROFILE"); path != "" {
		f, err := os.Create(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "prodlab: PRODLAB_CPUPROFILE:", err)
			return 1
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, "prodlab: PRODLAB_CPUPROFILE:", err)
			return 1
		}
		defer pprof.StopCPUProfile()
	}
	return cli.Main(os.Args[1:])
}
