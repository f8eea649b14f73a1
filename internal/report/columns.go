package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/prodlab/prodlab/internal/results"
	"github.com/prodlab/prodlab/internal/stats"
	"github.com/prodlab/prodlab/internal/summary"
)

// The result columns of every format (table, Markdown, CSV, report.html)
// come from one registry, columns: a column names itself once per format,
// says when it is shown and how to get its cell from a scenario, so adding
// a figure adds it everywhere. The scenario's own columns (its label, or
// one column per matrix key) and STATUS are laid out by each format around
// these.

// formatSet says which formats show a column.
type formatSet uint8

const (
	inTable formatSet = 1 << iota
	inMarkdown
	inHTML
	inCSV
	// inText is the table, Markdown and report.html.
	inText = inTable | inMarkdown | inHTML
	inAll  = inText | inCSV
)

// column is one result column.
type column struct {
	// head is the header of the table and report.html, md Markdown's, csv
	// the CSV base name (CSV adds NAME_sd and NAME_err unless plain).
	head, md, csv string
	// unit is the figure's unit, for documentation.
	unit string
	in   formatSet
	// when says whether the column is shown for these scenarios; nil is
	// always (optional columns appear when some scenario has the data).
	when func([]scenario) bool
	// text is the cell in the table, Markdown and report.html.
	text func(*scenario) string
	// sum is the figure for CSV; value, when set, replaces its mean (the
	// merged-histogram latency). nil: not in CSV.
	sum   func(*scenario) stats.Summary
	value func(*scenario) float64
	// plain CSV columns are a single number (counts, audit totals).
	plain bool
	// side, when set, puts the column in report.html's second results
	// table, under this name of its group ("CPU cost", "delivery audit"),
	// so that neither table is wider than the page.
	side string
}

// scenario is a summarised scenario with what report adds from its
// counted trials (not warm-up, status ok).
type scenario struct {
	*summary.ScenarioStats
	// Label is the scenario as "k=v k=v".
	Label string
	// CPUClient and CPUBrokers summarise results.CPU's ms per MB over the
	// counted trials that measured them (N is 0 when none did).
	CPUClient, CPUBrokers stats.Summary
	// Unsteady counts the counted trials whose measured window failed the
	// steady-state check; SteadyReason is the first one's reason.
	Unsteady     int
	SteadyReason string
	// Counted are the counted trials, in file order.
	Counted []results.Record
	// Timed are the first maxTimelineTrials non-warm-up trials (failed
	// ones included) that carry a timeline.
	Timed []results.Record
}

// summarize groups recs by scenario (summary.ByScenario) and adds the
// figures the table needs beyond stats: CPU cost and the steady-state
// check.
func summarize(recs []results.Record) ([]scenario, error) {
	scs, err := summary.ByScenario(recs)
	if err != nil {
		return nil, err
	}
	counted, timed := map[string][]results.Record{}, map[string][]results.Record{}
	for _, r := range recs {
		if r.Warmup {
			continue
		}
		id := summary.ScenarioKey(r)
		if r.Counted() {
			counted[id] = append(counted[id], r)
		}
		if r.Timeline != nil && len(r.Timeline.Points) > 0 && len(timed[id]) < maxTimelineTrials {
			timed[id] = append(timed[id], r)
		}
	}
	out := make([]scenario, len(scs))
	for i := range scs {
		s := scenario{ScenarioStats: &scs[i], Label: statsLabel(&scs[i]),
			Counted: counted[scs[i].ID], Timed: timed[scs[i].ID]}
		var client, brokers []float64
		for _, r := range s.Counted {
			if r.CPU != nil && r.CPU.ClientMsPerMB > 0 {
				client = append(client, r.CPU.ClientMsPerMB)
			}
			if r.CPU != nil {
				if r.CPU.BrokersMsPerMB > 0 {
					brokers = append(brokers, r.CPU.BrokersMsPerMB)
				}
			}
			if r.Steady != nil && !r.Steady.OK {
				if s.Unsteady == 0 {
					s.SteadyReason = r.Steady.Reason
				}
				s.Unsteady++
			}
		}
		s.CPUClient = stats.Summarize(client, stats.DefaultConfidence)
		s.CPUBrokers = stats.Summarize(brokers, stats.DefaultConfidence)
		out[i] = s
	}
	return out, nil
}

// figure is a column cell: the mean ± error of sum rendered with f, or
// none when the scenario has no counted trial.
func figure(sum func(*scenario) stats.Summary, f func(float64) string) func(*scenario) string {
	return func(s *scenario) string {
		if s.Trials == 0 {
			return none
		}
		return withErr(sum(s), f)
	}
}

// latency is a latency column's cell: the merged-histogram percentile
// with the error of the per-trial ones.
func latency(merged func(*scenario) float64, per func(*scenario) stats.Summary) func(*scenario) string {
	return func(s *scenario) string {
		if s.Trials == 0 {
			return none
		}
		return latencyCell(merged(s), per(s))
	}
}

// failedMean is the mean of a count over the failed trials of a scenario
// none of whose trials succeeded, so its row still says what happened.
func failedMean(s *scenario, f func(summary.Failure) int64) string {
	var sum float64
	for _, fl := range s.Failures {
		sum += float64(f(fl))
	}
	return thousands(sum / float64(len(s.Failures)))
}

// network returns the summary of one of the proxies' figures, picked from
// results.Network ("-" cells when the scenario lacks it: N is 0).
func network(of func(results.Network) float64) func(*scenario) stats.Summary {
	return func(s *scenario) stats.Summary { return s.NetworkSummary(of) }
}

// hasNetwork is a column condition: some scenario has the figure.
func hasNetwork(of func(results.Network) float64) func([]scenario) bool {
	return func(scs []scenario) bool {
		for i := range scs {
			if scs[i].NetworkSummary(of).N > 0 {
				return true
			}
		}
		return false
	}
}

// The figures of the network columns.
var (
	maxInFlight = func(n results.Network) float64 { return n.MaxInFlight }
	rttP50Ms    = func(n results.Network) float64 { return n.RTTP50Ms }
	modelMBPerS = func(n results.Network) float64 { return n.ModelMBPerS }
)

// hasAudit is the audit columns' condition.
func hasAudit(scs []scenario) bool {
	for _, s := range scs {
		if s.Audit != nil {
			return true
		}
	}
	return false
}

// audit is an audit column: the total over the counted trials (one lost
// record in any trial matters), none without an audit.
func audit(head, md, csv string, f func(*results.Audit) int64) column {
	return column{head: head, md: md, csv: csv, unit: "records", in: inAll, when: hasAudit, plain: true, side: "delivery audit",
		text: func(s *scenario) string {
			if s.Audit == nil {
				return none
			}
			return thousands(float64(f(s.Audit)))
		},
		sum: func(s *scenario) stats.Summary {
			if s.Audit == nil {
				return stats.Summary{}
			}
			return stats.Summary{N: s.Trials, Mean: float64(f(s.Audit)), SD: math.NaN(), Err: math.NaN()}
		}}
}

// txnAudit is a column of the transaction audit (results.AuditTxn),
// shown when some scenario's producers ran transactions.
func txnAudit(head, md, csv string, f func(*results.AuditTxn) int64) column {
	c := audit(head, md, csv, func(a *results.Audit) int64 {
		if a.Transactions == nil {
			return 0
		}
		return f(a.Transactions)
	})
	c.when = func(scs []scenario) bool {
		for _, s := range scs {
			if s.Audit != nil && s.Audit.Transactions != nil {
				return true
			}
		}
		return false
	}
	return c
}

// columns is the registry, in display order.
var columns = []column{
	{head: "TRIALS", md: "trials", unit: "trials", in: inText,
		text: func(s *scenario) string { return strconv.Itoa(s.Trials + len(s.Failures)) }},
	{head: "SENT", csv: "sent", unit: "records", in: inTable | inHTML | inCSV, plain: true,
		text: func(s *scenario) string {
			if s.Trials == 0 {
				return failedMean(s, func(f summary.Failure) int64 { return f.Sent })
			}
			return thousands(s.Sent.Mean)
		},
		sum: func(s *scenario) stats.Summary { return s.Sent }},
	{csv: "acked", unit: "records", in: inCSV, plain: true,
		sum: func(s *scenario) stats.Summary { return s.Acked }},
	{head: "FAILED", csv: "failed_records", unit: "records", in: inTable | inHTML | inCSV, plain: true,
		text: func(s *scenario) string {
			if s.Trials == 0 {
				return failedMean(s, func(f summary.Failure) int64 { return f.FailedRecords })
			}
			return thousands(s.FailedRecords.Mean)
		},
		sum: func(s *scenario) stats.Summary { return s.FailedRecords }},
	{head: "ELAPSED", csv: "elapsed_s", unit: "s", in: inTable | inHTML | inCSV,
		text: func(s *scenario) string {
			if s.Trials == 0 {
				return none
			}
			return seconds(s.ElapsedS.Mean)
		},
		sum: func(s *scenario) stats.Summary { return s.ElapsedS }},
	{head: "MSG/S", md: "msg/s", csv: "records_per_s", unit: "records/s", in: inAll,
		text: func(s *scenario) string {
			c := figure(func(s *scenario) stats.Summary { return s.Throughput }, thousands)(s)
			if s.Unsteady > 0 {
				c += " " + unsteadyMark
			}
			return c
		},
		sum: func(s *scenario) stats.Summary { return s.Throughput }},
	{head: "MB/S", md: "MB/s", csv: "mb_per_s", unit: "MB/s", in: inAll,
		text: figure(func(s *scenario) stats.Summary { return s.MBPerS }, f1),
		sum:  func(s *scenario) stats.Summary { return s.MBPerS }},
	{head: "P50 ms", md: "p50 ms", csv: "p50_ms", unit: "ms", in: inAll,
		text:  latency(func(s *scenario) float64 { return s.Latency.P50 }, func(s *scenario) stats.Summary { return s.P50 }),
		sum:   func(s *scenario) stats.Summary { return s.P50 },
		value: func(s *scenario) float64 { return s.Latency.P50 }},
	{csv: "p95_ms", unit: "ms", in: inCSV,
		sum:   func(s *scenario) stats.Summary { return s.P95 },
		value: func(s *scenario) float64 { return s.Latency.P95 }},
	{head: "P99 ms", md: "p99 ms", csv: "p99_ms", unit: "ms", in: inAll,
		text:  latency(func(s *scenario) float64 { return s.Latency.P99 }, func(s *scenario) stats.Summary { return s.P99 }),
		sum:   func(s *scenario) stats.Summary { return s.P99 },
		value: func(s *scenario) float64 { return s.Latency.P99 }},
	{head: "P99.9 ms", md: "p99.9 ms", csv: "p999_ms", unit: "ms", in: inAll,
		text:  latency(func(s *scenario) float64 { return s.Latency.P999 }, func(s *scenario) stats.Summary { return s.P999 }),
		sum:   func(s *scenario) stats.Summary { return s.P999 },
		value: func(s *scenario) float64 { return s.Latency.P999 }},
	{csv: "max_ms", unit: "ms", in: inCSV,
		sum:   func(s *scenario) stats.Summary { return s.Max },
		value: func(s *scenario) float64 { return s.Latency.Max }},
	{csv: "mean_ms", unit: "ms", in: inCSV,
		sum:   func(s *scenario) stats.Summary { return s.MeanLat },
		value: func(s *scenario) float64 { return s.Latency.Mean }},
	{head: "DISK", md: "disk", csv: "disk_bytes", unit: "bytes", in: inAll,
		text: figure(func(s *scenario) stats.Summary { return s.DiskBytes }, iecBytes),
		sum:  func(s *scenario) stats.Summary { return s.DiskBytes }},
	{head: "RATIO", md: "ratio", csv: "compression_ratio", unit: "×", in: inAll,
		text: figure(func(s *scenario) stats.Summary { return s.Ratio }, ratio),
		sum:  func(s *scenario) stats.Summary { return s.Ratio }},
	partitionColumns[0], partitionColumns[1],
	producerColumns[0], producerColumns[1],
	// CPU cost: processor time per MB acknowledged, warm-up included.
	{head: "CLIENT CPU ms/MB", side: "CPU cost", md: "client CPU ms/MB", csv: "client_cpu_ms_per_mb", unit: "ms/MB", in: inAll,
		when: func(scs []scenario) bool { return anyN(scs, func(s *scenario) stats.Summary { return s.CPUClient }) },
		text: figure(func(s *scenario) stats.Summary { return s.CPUClient }, f1),
		sum:  func(s *scenario) stats.Summary { return s.CPUClient }},
	{head: "BROKER CPU ms/MB", side: "CPU cost", md: "broker CPU ms/MB", csv: "brokers_cpu_ms_per_mb", unit: "ms/MB", in: inAll,
		when: func(scs []scenario) bool { return anyN(scs, func(s *scenario) stats.Summary { return s.CPUBrokers }) },
		text: figure(func(s *scenario) stats.Summary { return s.CPUBrokers }, f1),
		sum:  func(s *scenario) stats.Summary { return s.CPUBrokers }},
	// What the netem proxies saw: means ± error like the other figures.
	{head: "IN-FLIGHT", side: "network", md: "IN-FLIGHT", csv: "max_in_flight", unit: "requests", in: inAll,
		when: hasNetwork(maxInFlight),
		text: figure(network(maxInFlight), f0), sum: network(maxInFlight)},
	{head: "RTT ms", side: "network", md: "RTT ms", csv: "rtt_p50_ms", unit: "ms", in: inAll,
		when: hasNetwork(maxInFlight),
		text: figure(network(rttP50Ms), f1), sum: network(rttP50Ms)},
	{head: "MODEL MB/S", side: "network", md: "MODEL MB/S", csv: "model_mb_per_s", unit: "MB/s", in: inAll,
		when: hasNetwork(modelMBPerS),
		text: figure(network(modelMBPerS), f1), sum: network(modelMBPerS)},
	zoneColumns[0], zoneColumns[1],
	// The delivery audit: totals over the counted trials.
	audit("LOST", "LOST", "lost", func(a *results.Audit) int64 { return a.Lost }),
	audit("DUP", "DUP", "duplicates", func(a *results.Audit) int64 { return a.Duplicates }),
	audit("REORD", "REORD", "reordered", func(a *results.Audit) int64 { return a.Reordered }),
	audit("PHANTOM", "PHANTOM", "phantom", func(a *results.Audit) int64 { return a.Phantom }),
	// A transactional producer's audit: records of its aborted
	// transactions, and how many of them a read_committed consumer saw.
	txnAudit("ABORTED", "aborted", "aborted", func(t *results.AuditTxn) int64 { return t.Aborted }),
	txnAudit("ABORTED VISIBLE", "aborted visible", "aborted_visible", func(t *results.AuditTxn) int64 { return t.AbortedVisible }),
	emulatedColumn,
}

// anyN reports whether some scenario has a measured sum.
func anyN(scs []scenario, sum func(*scenario) stats.Summary) bool {
	for i := range scs {
		if sum(&scs[i]).N > 0 {
			return true
		}
	}
	return false
}

// shown returns the columns of format f shown for scs, in order.
func shown(f formatSet, scs []scenario) []column {
	var out []column
	for _, c := range columns {
		if c.in&f != 0 && (c.when == nil || c.when(scs)) {
			out = append(out, c)
		}
	}
	return out
}

// unsteadyMark follows the throughput of a scenario some of whose trials
// were not steady; steadyNotes explains it under the table.
const unsteadyMark = "!"

// steadyNotes returns one line per scenario with unsteady trials:
// "! <label>: not steady in N of M trials: <reason of the first>".
func steadyNotes(scs []scenario) []string {
	var out []string
	for _, s := range scs {
		if s.Unsteady == 0 {
			continue
		}
		n := fmt.Sprintf("%s %s: not steady in %d of %d trials", unsteadyMark, s.Label, s.Unsteady, s.Trials)
		if s.SteadyReason != "" {
			n += ": " + s.SteadyReason
		}
		out = append(out, n)
	}
	return out
}

// f1 renders one decimal; f0 none.
func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
func f0(v float64) string { return strconv.FormatFloat(v, 'f', 0, 64) }
