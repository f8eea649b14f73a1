package lab

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/prodlab/prodlab/internal/expfile"
)

// brokerTransactionMaxMs is Kafka's default transaction.max.timeout.ms
// (15 minutes) in every release prodlab starts.
const brokerTransactionMaxMs = 900_000

// checkTransactionMax refuses a transactional producer whose
// transaction.timeout.ms (set, or its client's default) is above what the
// brokers prodlab starts accept (transaction.max.timeout.ms from
// cluster.configs, else Kafka's default): the coordinator would refuse
// InitTransactions with INVALID_TRANSACTION_TIMEOUT, and every trial fail
// once the cluster is up. An existing cluster's maximum is its own.
func checkTransactionMax(scs []expfile.Scenario) error {
	var p problems
	for _, sc := range scs {
		if sc.Exp.Settings().TransactionalID == "" {
			continue
		}
		timeout := sc.Exp.TransactionTimeoutMs()
		limit, from := int64(brokerTransactionMaxMs), "Kafka's default"
		if v, ok := sc.Exp.Cluster.Configs["transaction.max.timeout.ms"]; ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				limit, from = n, "cluster.configs"
			}
		}
		if timeout.Set && timeout.V > limit {
			p.add(fmt.Sprintf("producer.transaction.timeout.ms %d is above the brokers' transaction.max.timeout.ms %d (%s): the coordinator refuses InitTransactions (INVALID_TRANSACTION_TIMEOUT); lower it, or raise transaction.max.timeout.ms under cluster.configs",
				timeout.V, limit, from), label(sc))
		}
	}
	return p.err(len(scs))
}
