package expfile

import (
	"github.com/prodlab/prodlab/internal/clients"
	"github.com/prodlab/prodlab/internal/kafkaconf"
)

// checkTransactionTimeout refuses a transaction schedule the coordinator
// cannot keep: transactions held open at least as long as
// transaction.timeout.ms (the client's default when unset: 60 s for Java
// and librdkafka, 40 s for franz-go), which the coordinator aborts on its
// own, so that every commit fails late.
func checkTransactionTimeout(e *Experiment, report reportFunc) {
	prod := e.Settings()
	if prod.TransactionalID == "" {
		return
	}
	tx := prod.Transactions()
	// With transaction.records too, the duration is a cap that a
	// transaction reaches only when its records come slowly: no rule.
	if tx.Every <= 0 || prod.TransactionRecords.Set {
		return
	}
	timeout := e.TransactionTimeoutMs()
	if timeout.Set && timeout.V > 0 && tx.Every >= timeout.V {
		report([]string{"producer." + kafkaconf.TransactionDurationMs, "producer." + kafkaconf.TransactionTimeoutMs},
			"transaction.duration.ms %d holds each transaction open at least as long as transaction.timeout.ms %d, after which the coordinator aborts it: set transaction.timeout.ms above the duration, or a shorter duration",
			tx.Every, timeout.V)
	}
}

// TransactionTimeoutMs is the producer's transaction.timeout.ms: as set,
// else its client's default (60 s for Java and librdkafka, 40 s for
// franz-go); unset only when the client is not known.
func (e *Experiment) TransactionTimeoutMs() kafkaconf.Opt[int64] {
	if t := e.Settings().TransactionTimeoutMs; t.Set {
		return t
	}
	cl, err := clients.Parse(e.Client)
	if err != nil || cl.Kind.Defaults == nil {
		return kafkaconf.Opt[int64]{}
	}
	return kafkaconf.Opt[int64]{V: cl.Kind.Defaults(cl.Version).TransactionTimeoutMs, Set: true}
}

// checkTransactionRecords refuses a transaction.records that a burst of
// workload.records never reaches: the trial's one transaction then ends
// with its last record, and the setting means nothing.
func checkTransactionRecords(e *Experiment, report reportFunc) {
	prod := e.Settings()
	if prod.TransactionalID == "" || !prod.TransactionRecords.Set || e.Workload.DurationS > 0 || e.Workload.Records <= 0 {
		return
	}
	if n := prod.TransactionRecords.V; n > e.Workload.Records {
		report([]string{"producer." + kafkaconf.TransactionRecords, "workload.records"},
			"transaction.records %d is more than the trial's %d records: its one transaction would end with the last record, and the setting would mean nothing (write at most %d)",
			n, e.Workload.Records, e.Workload.Records)
	}
}
