package expfile

import (
	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/payload"
)

// Defaults and limits of every setting, in one place.
const (
	// DefaultClient is the producer client used when the file names none.
	DefaultClient = clients.Java
	// DefaultBrokers is the cluster size used when the file names none.
	DefaultBrokers = 1
	// MaxBrokers is the largest embedded cluster prodlab starts; whether
	// that many fit in the machine's memory is checked before the run
	// (cluster.CheckMemory).
	MaxBrokers = 9
	// DefaultPartitions and DefaultReplicationFactor shape the topic.
	DefaultPartitions        = 1
	DefaultReplicationFactor = 1
	// DefaultRecords is the number of records per trial.
	DefaultRecords = 100_000
	// MaxRecords bounds a trial so that load loops stay bounded.
	MaxRecords = 1_000_000_000
	// DefaultRecordSize is the value size in bytes.
	DefaultRecordSize = 1024
	// MaxRecordSize is 16 MiB.
	MaxRecordSize = 16 << 20
	// DefaultPayload is the value generator.
	DefaultPayload = payload.KindJSON
	// DefaultTimeoutS bounds one trial, in seconds.
	DefaultTimeoutS = 600
	// MaxDelayMs bounds added network delays (rtt, jitter).
	MaxDelayMs = 10_000
	// MinDelayMs is the smallest added delay other than 0: the proxies
	// delay by whole nanoseconds, so a smaller one would silently be none.
	MinDelayMs = 0.001
	// MinRate and MaxRate bound workload.rate other than 0 (as fast as
	// possible), in records/s: below one record a second a producer
	// benchmark measures nothing, and above 100 million the pacer's
	// interval (10 ns a record) is below what it can keep.
	MinRate = 1
	MaxRate = 100_000_000
	// MinBandwidthMbit and MaxBandwidthMbit bound added bandwidth limits
	// other than 0 (unlimited): 1 kbit/s, below which no batch crosses
	// within a request timeout, to 1 Tbit/s, beyond any link the proxies
	// forward.
	MinBandwidthMbit = 0.001
	MaxBandwidthMbit = 1_000_000
	// MinTimeoutS and MaxTimeoutS bound workload.timeout.s: a trial of
	// under a second cannot start its producer, and one of more than a
	// week is past MaxPlannedDuration.
	MinTimeoutS = 1
	MaxTimeoutS = 7 * 86_400
	// MinWindowS is the shortest workload.duration.s and workload.warmup.s
	// other than 0: a shorter window holds a timeline point or two.
	MinWindowS = 0.1
	// MinBudgetS and MaxBudgetS bound budget, capacity.budget and
	// advise.budget: a second is less than one trial, and a week is
	// MaxPlannedDuration.
	MinBudgetS = 1
	MaxBudgetS = 7 * 86_400
	// MinShare bounds precision, equivalence, capacity.precision and
	// advise.precision from below (±0.1 %): finer than that no run here
	// resolves, and the budget, not the precision, would end it.
	MinShare = 0.001
	// MinSLOMs and MaxSLOMs bound an SLO percentile's milliseconds
	// (capacity.slo, advise.slo): latency is timed to the microsecond, and
	// an SLO of more than an hour bounds nothing a trial can show.
	MinSLOMs = 0.01
	MaxSLOMs = 3_600_000
	// MinKeepUp is the lowest capacity.keep.up (advise.keep.up): below
	// half, a producer sending half of what is offered would keep up.
	MinKeepUp = 0.5
	// MaxFaultMs bounds a fault's at.ms and delay.ms (one day, the longest
	// trial); MinFaultDelayMs is the shortest delay.ms other than 0.
	MaxFaultMs      = MaxDurationS * 1000
	MinFaultDelayMs = 1
	// DefaultTrials is the number of measured trials per scenario.
	DefaultTrials = 1
	// MaxScenarios bounds the matrix cross product: each scenario runs
	// at least once per round, so past a thousand a run takes days.
	MaxScenarios = 1000
	// BaseScenarioID is the ID of the only scenario of a matrix-less
	// experiment.
	BaseScenarioID = "base"
)

// defaults returns an experiment with every default filled in.
func defaults() Experiment {
	return Experiment{
		Cluster: Cluster{Brokers: DefaultBrokers, Zones: 1},
		Topic: Topic{
			Partitions:        DefaultPartitions,
			ReplicationFactor: DefaultReplicationFactor,
			Configs:           map[string]string{},
		},
		Workload: Workload{
			Records:    DefaultRecords,
			RecordSize: DefaultRecordSize,
			Payload:    DefaultPayload,
			TimeoutS:   DefaultTimeoutS,
			Keys:       defaultKeySpace(),
		},
		Client:      DefaultClient,
		Producer:    map[string]string{},
		Trials:      DefaultTrials,
		Precision:   DefaultPrecision,
		Equivalence: DefaultEquivalence,
		BudgetS:     DefaultBudgetS,
		WarmupMaxS:  DefaultWarmupMaxS,
		Capacity:    Capacity{KeepUp: DefaultKeepUp, Precision: DefaultCapacityPrecision, BudgetS: DefaultCapacityBudgetS},
		pos:         map[string]pos{},
	}
}
