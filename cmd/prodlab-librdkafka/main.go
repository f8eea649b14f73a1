//go:build librdkafka

// Command prodlab-librdkafka is prodlab's librdkafka worker: it runs
// producer trials with librdkafka (confluent-kafka-go's bundled build,
// through cgo) and speaks the worker protocol on stdin and stdout
// (docs/worker-protocol.md). prodlab starts it for client: librdkafka;
// build it with `make build` (go build -tags librdkafka).
//
//	prodlab-librdkafka serve        serve the worker protocol (the default)
//	prodlab-librdkafka trogdor      run one trial as a Trogdor
//	                                ExternalCommandSpec task's command
//	prodlab-librdkafka check        read a librdkafka configuration (JSON) on
//	                                stdin; print the resolved one, or
//	                                librdkafka's refusal on stderr and exit 2
//	prodlab-librdkafka properties   print librdkafka's property table as
//	                                internal/kafkaconf/librdkafka_properties.tsv
//	prodlab-librdkafka version      print the bundled librdkafka's version
//
// $PRODLAB_WORKER_CPUPROFILE, when set, names a file that serve writes a
// Go CPU profile of its whole run to (go tool pprof), for finding where
// the worker's own time goes (bench/RESULTS.md §34).
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"

	"github.com/prodlab/prodlab/internal/driver"
	"github.com/prodlab/prodlab/internal/kafkaconf"
)

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	cmd := "serve"
	if len(args) > 0 {
		cmd = args[0]
	}
	switch {
	case len(args) > 1:
		fmt.Fprintf(os.Stderr, "prodlab-librdkafka: %s takes no arguments\n", cmd)
		return 2
	case cmd == "serve":
		if path := os.Getenv("PRODLAB_WORKER_CPUPROFILE"); path != "" {
			f, err := os.Create(path)
			if err != nil {
				fmt.Fprintln(os.Stderr, "prodlab-librdkafka:", err)
				return 1
			}
			defer f.Close()
			if err := pprof.StartCPUProfile(f); err != nil {
				fmt.Fprintln(os.Stderr, "prodlab-librdkafka:", err)
				return 1
			}
			defer pprof.StopCPUProfile()
		}
		if err := driver.ServeLibrdkafka(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "prodlab-librdkafka:", err)
			return 1
		}
		return 0
	case cmd == "trogdor":
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
		defer stop()
		if err := driver.LibrdkafkaService().ServeTrogdor(ctx, os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "prodlab-librdkafka:", err)
			return 1
		}
		return 0
	case cmd == "check":
		in, err := io.ReadAll(io.LimitReader(os.Stdin, 16<<20))
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if !json.Valid(in) { // prodlab's fault, not librdkafka's refusal
			fmt.Fprintln(os.Stderr, "prodlab-librdkafka check: the configuration is not JSON")
			return 1
		}
		resolved, err := driver.LibrdkafkaCheck(in)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return driver.LibrdkafkaRefusedExit
		}
		_ = json.NewEncoder(os.Stdout).Encode(resolved)
		return 0
	case cmd == "properties":
		props, err := kafkaconf.ParseLibrdkafkaTable(driver.LibrdkafkaPropertiesTable())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		fmt.Print(kafkaconf.FormatLibrdkafkaTSV(props))
		return 0
	case cmd == "version":
		fmt.Println(driver.LibrdkafkaVersion())
		return 0
	}
	fmt.Fprintf(os.Stderr, "prodlab-librdkafka: unknown command %q (want serve, trogdor, check, properties or version)\n", cmd)
	return 2
}
