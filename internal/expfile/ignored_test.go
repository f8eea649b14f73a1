package expfile

import (
	"fmt"
	"testing"
)

// TestOutOfRange checks rates, budgets, SLOs, delays and windows of 1e308
// and 1e-300 wherever they are parsed (issue 46): each used to be
// accepted and then overflowed a duration, rounded to nothing or stood
// for no sensible setting. Each is refused at its value, with the bounds.
func TestOutOfRange(t *testing.T) {
	steady := "name: x\nworkload: {duration.s: 2, warmup.s: 1}\n"
	zones := "name: x\ncluster: {brokers: 2, zones: 2}\n"
	keys := []struct {
		name, src, col, msg string
	}{
		{"workload.rate", "name: x\nworkload: {rate: %s, duration.s: 2, warmup.s: 1}\n", "2:18", "workload.rate must be 0 (as fast as possible) or a number of records/s in 1..100000000"},
		{"workload.timeout.s", "name: x\nworkload: {timeout.s: %s}\n", "2:23", "workload.timeout.s must be a number in 1..604800"},
		{"workload.duration.s", "name: x\nworkload: {duration.s: %s}\n", "2:24", "workload.duration.s must be 0 (a burst of workload.records) or a number of seconds in 0.1..86400"},
		{"workload.warmup.s", "name: x\nworkload: {duration.s: 2, warmup.s: %s}\n", "2:37", "workload.warmup.s must be 0 (none) or a number of seconds in 0.1..86400"},
		{"network.rtt.ms", "name: x\nnetwork: {rtt.ms: %s}\n", "2:19", "network.rtt.ms must be 0 (none) or a number of milliseconds in 0.001..10000"},
		{"network.jitter.ms", "name: x\nnetwork: {jitter.ms: %s}\n", "2:22", "network.jitter.ms must be 0 (none) or a number of milliseconds in 0.001..10000"},
		{"network.replication.rtt.ms", "name: x\nnetwork: {replication.rtt.ms: %s}\n", "2:31", "network.replication.rtt.ms must be 0 (none) or a number of milliseconds in 0.001..10000"},
		{"network.bandwidth", "name: x\nnetwork: {bandwidth: %s}\n", "2:22", "network.bandwidth must be 0 (unlimited) or a number of Mbit/s in 0.001..1000000"},
		{"network.zones.rtt.ms", zones + "network: {zones: {rtt.ms: %s}}\n", "3:27", "network.zones.rtt.ms must be 0 (none) or a number of milliseconds in 0.001..10000"},
		{"network.zones.jitter.ms", zones + "network: {zones: {jitter.ms: %s}}\n", "3:30", "network.zones.jitter.ms must be 0 (none) or a number of milliseconds in 0.001..10000"},
		{"network.zones.bandwidth", zones + "network: {zones: {bandwidth: %s}}\n", "3:30", "network.zones.bandwidth must be 0 (unlimited) or a number of Mbit/s in 0.001..1000000"},
		{"budget", "name: x\ntrials: auto\nbudget: %s\n", "3:9", "budget must be a duration like 10m, 90s or 1h30m (or seconds), from 1s to 7 days"},
		{"precision", "name: x\ntrials: auto\nprecision: %s\n", "3:12", "precision must be a relative half-width in 0.001..1 (1 excluded), e.g. 0.05 for ±5 %"},
		{"equivalence", "name: x\nequivalence: %s\n", "2:14", "equivalence must be a relative margin in 0.001..1 (1 excluded), e.g. 0.05 for ±5 %"},
		{"warmup.max.s", "name: x\nwarmup: auto\nwarmup.max.s: %s\n", "3:15", "warmup.max.s must be a number in 1..86400"},
		{"capacity.slo", steady + "capacity: {slo: {p99.ms: %s}}\n", "3:26", "capacity.slo.p99.ms must be a number of milliseconds in 0.01..3600000"},
		{"capacity.keep.up", steady + "capacity: {keep.up: %s}\n", "3:21", "capacity.keep.up must be a share of the offered rate in 0.5..1, e.g. 0.99"},
		{"capacity.precision", steady + "capacity: {precision: %s}\n", "3:23", "capacity.precision must be a relative half-width in 0.001..1 (1 excluded), e.g. 0.05 for ±5 %"},
		{"capacity.budget", steady + "capacity: {budget: %s}\n", "3:20", "capacity.budget must be a duration like 10m, 90s or 1h30m (or seconds), from 1s to 7 days"},
		{"advise.slo", steady + "advise: {slo: {p99.ms: %s}}\n", "3:24", "advise.slo.p99.ms must be a number of milliseconds in 0.01..3600000"},
		{"advise.keep.up", steady + "advise: {keep.up: %s}\n", "3:19", "advise.keep.up must be a share of the offered rate in 0.5..1, e.g. 0.99"},
		{"advise.precision", steady + "advise: {precision: %s}\n", "3:21", "advise.precision must be a relative half-width in 0.001..1 (1 excluded), e.g. 0.05 for ±5 %"},
		{"advise.budget", steady + "advise: {budget: %s}\n", "3:18", "advise.budget must be a duration like 10m, 90s or 1h30m (or seconds), from 1s to 7 days"},
		{"fault delay.ms", "name: x\nfaults: [{type: broker.kill, delay.ms: %s}]\n", "2:40", "fault delay.ms must be 0 or a number of milliseconds in 1..86400000"},
		{"zone fault delay.ms", zones + "faults: [{type: zone.isolate, zone: b, delay.ms: %s}]\n", "3:50", "fault delay.ms must be 0 or a number of milliseconds in 1..86400000"},
	}
	var tests []refusal
	for _, k := range keys {
		for _, v := range []string{"1e308", "1e-300"} {
			tests = append(tests, refusal{name: k.name + " " + v, src: fmt.Sprintf(k.src, v),
				want: []string{fmt.Sprintf("x.yaml:%s: %s, got %q", k.col, k.msg, v)}})
		}
	}
	tests = append(tests,
		refusal{name: "fault at.ms 1e308", src: "name: x\nfaults: [{type: broker.kill, at.ms: 1e308}]\n",
			want: []string{`x.yaml:2:37: fault at.ms must be a number of milliseconds in 0..86400000, got "1e308"`}},
		// Infinity, which a bound of +Inf used to let through.
		refusal{name: "rate inf", src: "name: x\nworkload: {rate: inf}\n",
			want: []string{`x.yaml:2:18: workload.rate must be 0 (as fast as possible) or a number of records/s in 1..100000000, got "inf"`}},
	)
	runRefusals(t, tests)
}

// TestInRange checks values at the bounds of TestOutOfRange, and 0 where
// it means none, which must parse.
func TestInRange(t *testing.T) {
	runAccepted(t, []acceptance{
		{"lowest", "name: x\nworkload: {rate: 1, records: 10, duration.s: 1, warmup.s: 0.1, timeout.s: 5}\nnetwork: {rtt.ms: 0.001, jitter.ms: 0.001, bandwidth: 1}\n" +
			"trials: auto\nprecision: 0.001\nequivalence: 0.001\nbudget: 2s\nwarmup: auto\nwarmup.max.s: 1\n"},
		{"a budget of 1s", "name: x\ntrials: auto\nbudget: 1s\n"},
		{"highest", "name: x\nworkload: {rate: 100000000, duration.s: 86400, timeout.s: 604800}\nnetwork: {rtt.ms: 10000, bandwidth: 1000000}\n"},
		{"zeros", "name: x\nworkload: {rate: 0, duration.s: 0, warmup.s: 0}\nnetwork: {rtt.ms: 0, bandwidth: 0}\n"},
		// Bounds on two latencies: neither orders the other.
		{"e2e and intended SLO", "name: x\nworkload: {duration.s: 2, warmup.s: 1, consumer: true}\ncapacity: {slo: {p99.ms: 500, e2e.p50.ms: 100}}\n"},
		{"capacity bounds", "name: x\nworkload: {duration.s: 2, warmup.s: 1}\ncapacity: {slo: {p50.ms: 0.01, p99.ms: 3600000}, keep.up: 0.5, precision: 0.001, budget: 168h}\n"},
		{"fault delays", "name: x\nworkload: {duration.s: 2, warmup.s: 1}\nfaults: [{type: broker.kill, at.ms: 0, delay.ms: 1}, {type: broker.pause, at.ms: 2999, delay.ms: 86400000}]\n"},
		// A fault turns the audit on, so expect: applies without audit: true.
		{"expect beside a fault", "name: x\nfaults: [{type: connection.cut, every: 5}]\nexpect: {duplicates: true}\n"},
		{"expect beside network.cut.every", "name: x\nnetwork: {cut.every: 5}\nexpect: {duplicates: true}\n"},
	})
}

// TestIgnoredRefused checks settings that used to be accepted and then
// ignored, or to fail every trial once started (issue 46): each is refused
// at its key, saying what would happen and the way out.
func TestIgnoredRefused(t *testing.T) {
	runRefusals(t, []refusal{
		{name: "rate split too thin over producers",
			src:  "name: x\nworkload: {rate: 1, producers: 8, duration.s: 2, warmup.s: 1}\n",
			want: []string{"x.yaml:2:12: workload.rate 1 records/s over workload.producers 8 is 0.125 records/s each, 0.25 records in the 2 s window (workload.duration.s): producers would send nothing measured; raise the rate to at least 4, the window to at least 8 s, or use fewer producers"}},
		{name: "rate too low for one producer's window",
			src:  "name: x\nworkload: {rate: 1, duration.s: 0.5}\n",
			want: []string{"x.yaml:2:12: workload.rate 1 records/s offers 0.5 records in the 0.5 s window (workload.duration.s): the producer would send nothing measured; raise the rate to at least 2, or the window to at least 1 s"}},
		{name: "thin rate in one scenario",
			src:  "name: x\nworkload: {producers: 4, duration.s: 2, warmup.s: 1}\nmatrix:\n  rate: [1, 1000]\n",
			want: []string{`x.yaml:4:10: scenario "rate=1": workload.rate 1 records/s over workload.producers 4 is 0.25 records/s each, 0.5 records in the 2 s window (workload.duration.s): producers would send nothing measured; raise the rate to at least 2, the window to at least 4 s, or use fewer producers`}},
		{name: "burst longer than its timeout",
			src:  "name: x\nworkload: {rate: 10, records: 100000, timeout.s: 60}\n",
			want: []string{"x.yaml:2:39: workload.records 100000 at workload.rate 10 records/s take 2h46m40s, and workload.timeout.s (60) ends the trial before: every trial would time out; raise workload.timeout.s above 10000, raise the rate, or send fewer records"}},
		{name: "burst with warm-up records longer than its timeout",
			src: "name: x\nworkload: {rate: 100, records: 1000, warmup.records: 500}\nmatrix:\n  timeout.s: [10, 20]\n",
			want: []string{
				`x.yaml:4:15: scenario "timeout.s=10": workload.records 1000 and workload.warmup.records 500 at workload.rate 100 records/s take 15s, and workload.timeout.s (10) ends the trial before: every trial would time out; raise workload.timeout.s above 15, raise the rate, or send fewer records`}},
		{name: "fault after the steady-state trial",
			src:  "name: x\nworkload: {duration.s: 2, warmup.s: 1}\nfaults: [{type: broker.pause, at.ms: 60000}]\n",
			want: []string{"x.yaml:3:10: fault broker.pause at.ms 60000 comes after the trial ends (workload.warmup.s 1 + workload.duration.s 2 = 3s): it would never happen; set at.ms below 3000"}},
		{name: "fault after the window's catch-up",
			src:  "name: x\nworkload: {duration.s: 2, warmup.s: 1}\ncapacity: {slo: {p99.ms: 50}}\nfaults: [{type: broker.kill, at.ms: 5000}]\n",
			want: []string{"x.yaml:4:10: fault broker.kill at.ms 5000 comes after the trial ends (workload.warmup.s 1 + workload.duration.s 2 + a window's catch-up under the SLO = 5s): it would never happen; set at.ms below 5000"}},
		{name: "fault after the burst's timeout",
			src:  "name: x\nworkload: {timeout.s: 30}\nfaults: [{type: connection.cut, at.ms: 30000}]\n",
			want: []string{"x.yaml:3:10: fault connection.cut at.ms 30000 comes after workload.timeout.s (30) ends every trial: it would never happen; set at.ms below 30000"}},
		{name: "fault after the window of one scenario",
			src:  "name: x\nworkload: {warmup.s: 1}\nfaults: [{type: leader.shutdown, at.ms: 4000}]\nmatrix:\n  duration.s: [2, 10]\n",
			want: []string{`x.yaml:3:10: scenario "duration.s=2": fault leader.shutdown at.ms 4000 comes after the trial ends (workload.warmup.s 1 + workload.duration.s 2 = 3s): it would never happen; set at.ms below 3000`}},
		// Newer keys against older ones: settings accepted and then
		// ignored.
		{name: "client.zone without zones",
			src:  "name: x\nclient.zone: a\n",
			want: []string{"x.yaml:2:1: client.zone needs a cluster in zones (cluster.zones 2 or 3): with one zone the client is in it, and the setting would do nothing"}},
		{name: "expect without audit",
			src:  "name: x\nexpect: {lost: true, duplicates: true}\n",
			want: []string{"x.yaml:2:10: expect.lost and expect.duplicates apply to the audit's findings, but nothing is audited (audit is false and no fault is injected), and it would be ignored (set audit: true, or drop expect)"}},
		{name: "zipf exponent of a uniform space",
			src:  "name: x\nworkload: {keys: {distribution: uniform, zipf.exponent: 2}}\n",
			want: []string{"x.yaml:2:42: workload.keys.zipf.exponent applies to distribution zipf, but workload.keys.distribution is uniform: it would be ignored (set the distribution, or drop zipf.exponent)"}},
		{name: "key count of keyless records",
			src:  "name: x\nworkload: {keys: {count: 10}}\n",
			want: []string{"x.yaml:2:19: workload.keys.count applies to a keyed distribution (uniform, zipf, sequential), but workload.keys.distribution is none: it would be ignored (set the distribution, or drop count)"}},
		{name: "timeline interval longer than the trial",
			src:  "name: x\nworkload: {duration.s: 2, warmup.s: 1}\ntimeline: {interval.ms: 60000}\n",
			want: []string{"x.yaml:3:12: timeline.interval.ms 60000 is as long as the trial (workload.warmup.s + workload.duration.s = 3s) or longer: its timeline would hold no point; use at most 1500, or 0 (automatic)"}},
		{name: "cut.every past a burst's requests",
			src:  "name: x\nworkload: {records: 100}\nnetwork: {cut.every: 1000}\n",
			want: []string{"x.yaml:3:11: network.cut.every 1000 is more produce requests than a burst of 100 records makes (a request carries at least one): it would never cut; use at most 100"}},
		{name: "connection.cut every past a burst's requests",
			src:  "name: x\nworkload: {records: 100, warmup.records: 10}\nfaults: [{type: connection.cut, every: 1000}]\n",
			want: []string{"x.yaml:3:10: fault connection.cut every 1000 is more produce requests than a burst of 110 records makes (a request carries at least one): it would never cut; use at most 110"}},
		{name: "SLO of p50 above p99",
			src:  "name: x\nworkload: {duration.s: 2, warmup.s: 1}\ncapacity: {slo: {p50.ms: 100, p99.ms: 10}}\n",
			want: []string{"x.yaml:3:18: capacity.slo.p50.ms 100 is above capacity.slo.p99.ms 10, and p50 never exceeds p99: its bound would never decide (lower it to at most 10, or drop it)"}},
		{name: "advise SLO of p95 above p99.9",
			src:  "name: x\nworkload: {duration.s: 2, warmup.s: 1}\nadvise: {slo: {p95.ms: 100, p99.9.ms: 10}}\n",
			want: []string{"x.yaml:3:16: advise.slo.p95.ms 100 is above advise.slo.p99.9.ms 10, and p95 never exceeds p99.9: its bound would never decide (lower it to at most 10, or drop it)"}},
		{name: "e2e SLO of p99 above p99.9",
			src:  "name: x\nworkload: {duration.s: 2, warmup.s: 1, consumer: true}\ncapacity: {slo: {e2e.p99.ms: 100, e2e.p99.9.ms: 10}}\n",
			want: []string{"x.yaml:3:18: capacity.slo.e2e.p99.ms 100 is above capacity.slo.e2e.p99.9.ms 10, and e2e.p99 never exceeds e2e.p99.9: its bound would never decide (lower it to at most 10, or drop it)"}},
		{name: "e2e SLO without a consumer",
			src:  "name: x\nworkload: {duration.s: 2, warmup.s: 1}\ncapacity: {slo: {p99.ms: 50, e2e.p99.ms: 250}}\n",
			want: []string{"x.yaml:3:30: capacity.slo.e2e.p99.ms bounds the end-to-end latency, which only a consumer reading the topic measures: set workload.consumer: true (or bound a percentile from the intended send time, such as capacity.slo.p99.ms)"}},
		{name: "advise e2e SLO without a consumer",
			src:  "name: x\nworkload: {duration.s: 2, warmup.s: 1}\nadvise: {slo: {e2e.p50.ms: 250}}\n",
			want: []string{"x.yaml:3:16: advise.slo.e2e.p50.ms bounds the end-to-end latency, which only a consumer reading the topic measures: set workload.consumer: true (or bound a percentile from the intended send time, such as advise.slo.p50.ms)"}},
		// A matrix axis with one value in two spellings is one scenario twice.
		{name: "matrix acks all and -1",
			src:  "name: x\nmatrix:\n  acks: [all, \"-1\"]\n",
			want: []string{`x.yaml:3:15: value "-1" of matrix axis "acks" repeats the settings of another value (producer.acks=all)`}},
	})
}
