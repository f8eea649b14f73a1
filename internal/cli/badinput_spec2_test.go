package cli

// specRound2Rows are experiment files of issue 46's second round of bad
// input: settings accepted and then ignored or silently odd, values of
// 1e308 and 1e-300, and messages that named the wrong section. Each must
// exit 2 before anything starts, naming the key as written.
func specRound2Rows() []badInput {
	steady := "workload: {duration.s: 2, warmup.s: 1}\n"
	space := "advise:\n  space: {linger.ms: [0, 5]}\n"
	rows := []badInput{
		runFile("round 2: advise", "capacity beside advise", steady+"capacity: {slo: {p99.ms: 100}}\n"+space, "exp.yaml:4:1: capacity: and advise: cannot share a file"),
		runFile("round 2: advise", "acks all and -1 in the space", steady+"advise:\n  space: {acks: [all, \"-1\"]}\n", "advise.space acks lists one value twice: all and -1 are the same setting"),
		runFile("round 2: advise", "acks 0 under idempotence", steady+"producer: {enable.idempotence: true}\nadvise:\n  space: {acks: [0, all]}\n", "advise.space acks 0 contradicts the constraint enable.idempotence=true"),
		runFile("round 2: advise", "space of ten billion candidates", steady+"advise:\n  space:\n"+
			"    linger.ms: [0,1,2,3,4,5,6,7,8,9]\n    batch.size: [1,2,3,4,5,6,7,8,9,10]\n    buffer.memory: [1,2,3,4,5,6,7,8,9,10]\n"+
			"    retries: [0,1,2,3,4,5,6,7,8,9]\n    max.block.ms: [0,1,2,3,4,5,6,7,8,9]\n    request.timeout.ms: [1,2,3,4,5,6,7,8,9,10]\n",
			"advise.space makes over 1000000 candidates"),
		runFile("round 2: advise", "advise.budget named as written", steady+"advise: {budget: soon}\n", "advise.budget must be a duration"),
		runFile("round 2: advise", "advise.precision named as written", steady+"advise: {precision: 2}\n", "advise.precision must be a relative half-width"),
		runFile("round 2: advise", "advise.keep.up named as written", steady+"advise: {keep.up: 0}\n", "advise.keep.up must be a share of the offered rate"),
		runFile("round 2: advise", "trials beside advise", steady+"trials: 5\n"+space, "trials does not apply beside advise"),
		runFile("round 2: advise", "a burst under advise", space, "advise probes steady-state windows"),
		runFile("round 2: advise", "schedule: duet beside advise", steady+"schedule: duet\n"+space, "advise races its candidates on one cluster"),
		runFile("round 2: ranges", "budget 1e308", "trials: auto\nbudget: 1e308\n", "budget must be a duration like 10m, 90s or 1h30m (or seconds), from 1s to 7 days"),
		runFile("round 2: ranges", "capacity SLO 1e-300", steady+"capacity: {slo: {p99.ms: 1e-300}}\n", "capacity.slo.p99.ms must be a number of milliseconds in 0.01..3600000"),
		runFile("round 2: ranges", "rate 1e308", "workload: {rate: 1e308}\n", "workload.rate must be 0 (as fast as possible) or a number of records/s in 1..100000000"),
		runFile("round 2: ranges", "rtt 1e-300", "network: {rtt.ms: 1e-300}\n", "network.rtt.ms must be 0 (none) or a number of milliseconds in 0.001..10000"),
		runFile("round 2: ranges", "zone link bandwidth 1e308", "cluster: {brokers: 2, zones: 2}\nnetwork: {zones: {bandwidth: 1e308}}\n", "network.zones.bandwidth must be 0 (unlimited) or a number of Mbit/s in 0.001..1000000"),
		runFile("round 2: ranges", "fault delay 1e-300", "faults: [{type: broker.kill, delay.ms: 1e-300}]\n", "fault delay.ms must be 0 or a number of milliseconds in 1..86400000"),
		runFile("round 2: ranges", "timeout 1e308", "workload: {timeout.s: 1e308}\n", "workload.timeout.s must be a number in 1..604800"),
		runFile("round 2: ranges", "duration 1e-300", "workload: {duration.s: 1e-300}\n", "workload.duration.s must be 0 (a burst of workload.records) or a number of seconds in 0.1..86400"),
		runFile("round 2: workload", "rate split too thin over producers", "workload: {rate: 1, producers: 8, duration.s: 2, warmup.s: 1}\n", "workload.rate 1 records/s over workload.producers 8 is 0.125 records/s each"),
		runFile("round 2: workload", "burst its timeout ends", "workload: {rate: 10, records: 100000, timeout.s: 60}\n", "workload.records 100000 at workload.rate 10 records/s take 2h46m40s"),
		runFile("round 2: faults", "fault after the trial ends", steady+"faults: [{type: broker.pause, at.ms: 60000}]\n", "fault broker.pause at.ms 60000 comes after the trial ends"),
		runFile("round 2: ignored", "acks all and -1 in a matrix", "matrix: {acks: [all, \"-1\"]}\n", `value "-1" of matrix axis "acks" repeats the settings of another value`),
		runFile("round 2: ignored", "client.zone without zones", "client.zone: a\n", "client.zone needs a cluster in zones"),
		runFile("round 2: ignored", "expect without audit", "expect: {lost: true}\n", "expect.lost applies to the audit's findings, but nothing is audited"),
		runFile("round 2: ignored", "zipf exponent of a uniform space", "workload: {keys: {distribution: uniform, zipf.exponent: 2}}\n", "workload.keys.zipf.exponent applies to distribution zipf"),
		runFile("round 2: ignored", "timeline interval past the trial", steady+"timeline: {interval.ms: 60000}\n", "timeline.interval.ms 60000 is as long as the trial"),
		runFile("round 2: ignored", "cut.every past a burst", "workload: {records: 100}\nnetwork: {cut.every: 1000}\n", "network.cut.every 1000 is more produce requests than a burst of 100 records makes"),
		runFile("round 2: ignored", "SLO p50 above p99", steady+"capacity: {slo: {p50.ms: 100, p99.ms: 10}}\n", "capacity.slo.p50.ms 100 is above capacity.slo.p99.ms 10"),
	}
	return rows
}
