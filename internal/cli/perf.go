package cli

import (
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/prodlab/prodlab/internal/app"
	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/report"
)

// newPerfCmd is `prodlab perf`: kafka-producer-perf-test's command line and
// output, run with prodlab's drivers (the Java client, franz-go or librdkafka) against
// a given cluster or an embedded one.
func newPerfCmd() *cobra.Command {
	return perfCommand(&perfFlags{}, runPerf)
}

// perfCommand builds the perf command around f, calling run with the
// validated plan (tests pass their own run to inspect the plan).
func perfCommand(f *perfFlags, run func(*cobra.Command, *perfPlan) error) *cobra.Command {
	c := &cobra.Command{
		Use:   "perf --topic TOPIC --num-records N (--record-size BYTES | --payload-file FILE) [flags]",
		Short: "kafka-producer-perf-test, improved: same options and output, µs latencies, any client",
		Long: `Produce records as kafka-producer-perf-test does, with the same options (paste
your existing command after 'prodlab perf') and the same output: a line every
5 seconds and the final summary line. Latencies are measured in µs
(HdrHistogram) rather than whole milliseconds.

Without --bootstrap-server (or bootstrap.servers in the producer properties)
prodlab starts a one-broker Kafka cluster on 127.0.0.1 in a temporary
directory and stops it at the end. The topic is created with --partitions
partitions if it does not exist.

--client picks the producer: java (the official client of the cluster's
Kafka release, in a worker JVM; the default), java@VERSION, franz-go (in
process) or librdkafka (the C client under confluent-kafka-python, -dotnet,
-go and Confluent's JavaScript client, in a worker process; its settings in
its own words: batch.num.messages, queue.buffering.max.kbytes, …). Each
keeps its own defaults for unset properties (franz-go: linger 10 ms and
snappy compression; librdkafka: batch.size 1000000, idempotence off): set
them to compare like with like.

--warmup-records W sends W records first through the same producer, then
the remaining num-records − W in the same stream, no flush between (as
perf-test's --warmup-records; the steady-state clock starts when record W
is handed over, while warm-up records may still be buffered); as in
perf-test the final output is the overall line followed by the
steady-state line.

Secrets in --producer.config (sasl.jaas.config, *password*) are never
printed. Exit codes: 0 ok, 1 the run failed or records failed, 2 bad usage.`,
		Example: `  prodlab perf --topic t --num-records 100000 --record-size 1024 --throughput -1 \
      --producer-props acks=all linger.ms=5 batch.size=65536
  prodlab perf --client franz-go --topic t --num-records 1000000 --record-size 1024 \
      --throughput 50000 --producer-props compression.type=lz4 --print-metrics
  prodlab perf --client librdkafka --topic t --num-records 200000 --record-size 1024 \
      --throughput -1 --producer-props acks=all linger.ms=5 batch.num.messages=1000
  prodlab perf --bootstrap-server 127.0.0.1:9092 --producer.config client.properties \
      --topic t --num-records 10000 --payload-file events.txt --warmup-records 1000`,
		Args: cobra.ArbitraryArgs, // NAME=VALUE after --producer-props; checked in resolvePerf
		RunE: func(c *cobra.Command, args []string) error {
			plan, err := resolvePerf(f, c.Flags().Changed, args)
			if err != nil {
				return err
			}
			defer plan.cleanup()
			if f.dryRun {
				return perfDryRun(plan.redact.writer(c.OutOrStdout()), plan)
			}
			return plan.redact.err(run(c, plan))
		},
	}
	fl := c.Flags()
	fl.StringVar(&f.topic, "topic", "", "produce messages to this topic (created if missing)")
	fl.Int64Var(&f.numRecords, "num-records", 0, "number of messages to produce, warm-up included")
	fl.IntVar(&f.recordSize, "record-size", 0, "message size in bytes (or give --payload-file)")
	fl.Float64Var(&f.throughput, "throughput", -1, "throttle to about THROUGHPUT messages/sec; -1 for no limit")
	fl.StringArrayVar(&f.producerProps, "producer-props", nil, "producer properties NAME=VALUE [NAME=VALUE ...]; they take precedence over --producer.config")
	fl.StringVar(&f.producerConfig, "producer.config", "", "producer config properties file")
	fl.StringVar(&f.payloadFile, "payload-file", "", "file to read the message payloads from (UTF-8 text; cycled in order)")
	fl.StringVar(&f.payloadDelimiter, "payload-delimiter", `\n`, "delimiter (a regular expression) between payloads in --payload-file")
	fl.StringVar(&f.transactionalID, "transactional-id", "", "transactional id; enables transactions (default with --transaction-duration-ms: performance-producer-<uuid>)")
	fl.Int64Var(&f.txDurationMs, "transaction-duration-ms", 0, "commit a transaction after this many ms; enables transactions (3000 when transactions are enabled otherwise)")
	fl.Int64Var(&f.warmupRecords, "warmup-records", 0, "records to produce first, excluded from the steady-state figures")
	fl.BoolVar(&f.printMetrics, "print-metrics", false, "print the client's metrics at the end")
	fl.StringVar(&f.bootstrap, "bootstrap-server", "", "HOST:PORT[,HOST:PORT] of the cluster (default: bootstrap.servers, else an embedded 1-broker cluster)")
	fl.StringVar(&f.client, "client", "java", "producer client: "+clients.Syntax("VERSION"))
	fl.IntVar(&f.partitions, "partitions", 1, "partitions of the topic when prodlab creates it")
	fl.StringVar(&f.payload, "payload", "text", "generated values with --record-size: text (random A-Z, as perf-test), random or json")
	fl.DurationVar(&f.timeout, "timeout", 30*time.Minute, "bound on the whole run, warm-up included")
	fl.BoolVar(&f.dryRun, "dry-run", false, "check the command line and producer properties, print what would run, and start nothing")
	return c
}

// runPerf runs a validated perf plan (app.Perf) and prints the client's
// metrics when asked, secrets hidden from every line.
func runPerf(c *cobra.Command, p *perfPlan) error {
	out := p.redact.writer(c.OutOrStdout())
	logw := p.redact.writer(c.ErrOrStderr())
	ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ans, err := app.Perf(ctx, p.request(), out, logw)
	if ans != nil && p.printMetrics {
		report.PerfMetrics(out, ans.Metrics)
	}
	return err
}

// perfDryRun prints what a checked perf command would run: nothing
// starts, and the client's release is checked only when it runs.
func perfDryRun(w io.Writer, p *perfPlan) error {
	target := "an embedded 1-broker cluster"
	if p.bootstrap != nil {
		target = strings.Join(p.bootstrap, ",")
	}
	_, err := fmt.Fprintf(w, "dry run of perf: %d records (%d warm-up) to %s on %s with %s; producer properties: %s; nothing started\n",
		p.records, p.warmup, p.topic, target, p.client, app.DescribeProps(p.props))
	return err
}
