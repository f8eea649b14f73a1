package expfile

import (
	"fmt"
	"strconv"
	"strings"
)

// MaxTransactionVersion is the highest transaction.version feature level
// (KIP-890: 1 the classic protocol, 2 server-side defence with one round
// trip fewer per transaction).
const MaxTransactionVersion = 2

// transactionVersionSince is the first Kafka release whose storage tool
// sets transaction.version when it formats (Kafka 4.0: transactions v2
// ready; 4.x formats new clusters at 2).
const transactionVersionSince = 4

// transactionVersionError is why e's cluster cannot have its
// cluster.transaction.version ("" when it can): a release before 4.0. A
// local distribution is judged by its own storage tool when it formats.
func transactionVersionError(e *Experiment) string {
	c := e.Cluster
	if c.TransactionVersion == 0 || c.Kafka == "" || strings.HasPrefix(c.Kafka, "/") {
		return ""
	}
	major, _, _ := strings.Cut(c.Kafka, ".")
	if n, err := strconv.Atoi(major); err == nil && n < transactionVersionSince {
		return fmt.Sprintf("cluster.transaction.version needs Kafka 4.0 or later (the transaction.version feature, KIP-890); cluster.kafka is %s", c.Kafka)
	}
	return ""
}

// Features are the KRaft feature levels the cluster's storage is
// formatted with: transaction.version when set; nil for the release's
// defaults.
func (c Cluster) Features() map[string]int {
	if c.TransactionVersion == 0 {
		return nil
	}
	return map[string]int{"transaction.version": c.TransactionVersion}
}
