package expfile

import (
	"fmt"

	"github.com/prodlab/prodlab/internal/payload"
)

// MaxRecordsPerRequest is the most metadata records Kafka's controller
// writes for one request: a CreateTopics that would write more fails with
// a BoundedListTooLongException. Creating a topic writes one TopicRecord,
// one ConfigRecord per topic config and one PartitionRecord per partition.
//
// Source: Apache Kafka 4.4.0, org.apache.kafka.controller.QuorumController
// MAX_RECORDS_PER_USER_OP = 10000 (javap -constants), used by
// ReplicationControlManager.createTopics as the bound of its record list.
const MaxRecordsPerRequest = 10_000

// MaxPartitions is the most partitions of a topic with no topic configs
// (see MaxRecordsPerRequest).
const MaxPartitions = MaxRecordsPerRequest - 1

// reportFunc reports a contradiction between the settings keys of one
// scenario (see checkScenario).
type reportFunc func(keys []string, format string, args ...any)

// CheckPartitions refuses a topic the controller would refuse to create:
// more partitions than fit in one request beside the topic and its
// topicConfigs configs. The message names no key: callers add theirs.
func CheckPartitions(partitions, topicConfigs int) error {
	most := MaxRecordsPerRequest - 1 - topicConfigs
	if partitions <= most {
		return nil
	}
	return fmt.Errorf("must be at most %d here, got %d: Kafka's controller writes at most %d records per request (1 for the topic, 1 per topic config, 1 per partition)",
		most, partitions, MaxRecordsPerRequest)
}

// checkPartitions is CheckPartitions for a scenario's topic.
func checkPartitions(e *Experiment, report reportFunc) {
	if err := CheckPartitions(e.Topic.Partitions, len(e.Topic.Configs)); err != nil {
		report([]string{"topic.partitions"}, "topic.partitions %v", err)
	}
}

// checkRecordSize refuses a record size the payload generator cannot
// fill (payload.CheckSize), which would fail every trial.
func checkRecordSize(e *Experiment, report reportFunc) {
	w := e.Workload
	if err := payload.CheckSize(w.Payload, w.RecordSize); err != nil {
		report([]string{"workload.record.size", "workload.payload"},
			"workload.record.size %v; use record.size ≥ %d, or payload: random or text", err, payload.MinJSONSize)
	}
}

// checkLimits reports a scenario's settings that Kafka or a payload
// generator would refuse once the run has started.
func checkLimits(e *Experiment, report reportFunc) {
	checkPartitions(e, report)
	checkRecordSize(e, report)
}
