package spec

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
