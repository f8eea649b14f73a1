package expfile

import "regexp"

// topicConfigs lists the topic-level configurations of Apache Kafka 4.x with
// their ConfigDef types; these are the names accepted under topic.configs.
//
// Source: Apache Kafka 4.4.0, LogConfig.configNames() and the types of
// LogConfig.configDefCopy() (org.apache.kafka.storage.internals.log), less
// the internal internal.segment.bytes.
var topicConfigs = map[string]configType{
	"cleanup.policy":                          typeList,
	"compression.gzip.level":                  typeInt,
	"compression.lz4.level":                   typeInt,
	"compression.type":                        typeString,
	"compression.zstd.level":                  typeInt,
	"delete.retention.ms":                     typeLong,
	"errors.deadletterqueue.group.enable":     typeBool,
	"file.delete.delay.ms":                    typeLong,
	"flush.messages":                          typeLong,
	"flush.ms":                                typeLong,
	"follower.replication.throttled.replicas": typeList,
	"index.interval.bytes":                    typeInt,
	"leader.replication.throttled.replicas":   typeList,
	"local.retention.bytes":                   typeLong,
	"local.retention.ms":                      typeLong,
	"max.compaction.lag.ms":                   typeLong,
	"max.decompressed.message.bytes":          typeInt,
	"max.message.bytes":                       typeInt,
	"message.timestamp.after.max.ms":          typeLong,
	"message.timestamp.before.max.ms":         typeLong,
	"message.timestamp.type":                  typeString,
	"min.cleanable.dirty.ratio":               typeDouble,
	"min.compaction.lag.ms":                   typeLong,
	"min.insync.replicas":                     typeInt,
	"preallocate":                             typeBool,
	"remote.copy.lag.bytes":                   typeLong,
	"remote.copy.lag.ms":                      typeLong,
	"remote.log.copy.disable":                 typeBool,
	"remote.log.delete.on.disable":            typeBool,
	"remote.storage.enable":                   typeBool,
	"retention.bytes":                         typeLong,
	"retention.ms":                            typeLong,
	"segment.bytes":                           typeInt,
	"segment.index.bytes":                     typeInt,
	"segment.jitter.ms":                       typeLong,
	"segment.ms":                              typeLong,
	"unclean.leader.election.enable":          typeBool,
}

// topicRules are the value rules of topic configs, so that a value the
// broker would refuse in CreateTopics is refused before anything starts.
//
// Source: the ConfigDef of Apache Kafka 4.4.0 (prodlab's default release),
// org.apache.kafka.storage.internals.log.LogConfig.configDefCopy(), each
// key's validator as it prints itself (ConfigDef.Range "[1,...]",
// ValidList "[compact, delete]", ValidString, …), and the refusals of
// LogConfig.validate checked against it (cleanup.policy=banana: "String
// must be one of: compact, delete"; segment.bytes=1048575: "Value must be
// at least 1048576"; compression.gzip.level=0: "Value must be between 1
// and 9 or equal to -1").
var topicRules = configRules{
	Ints: map[string][2]int64{
		"compression.gzip.level":         {1, 9},
		"compression.lz4.level":          {1, 17},
		"compression.zstd.level":         {-131072, 22},
		"flush.messages":                 {1, 1<<63 - 1},
		"local.retention.bytes":          {-2, 1<<63 - 1},
		"local.retention.ms":             {-2, 1<<63 - 1},
		"max.compaction.lag.ms":          {1, 1<<63 - 1},
		"max.decompressed.message.bytes": {1, 2147483639},
		"min.insync.replicas":            {1, 1<<31 - 1},
		"remote.copy.lag.bytes":          {-1, 1<<63 - 1},
		"remote.copy.lag.ms":             {-1, 1<<63 - 1},
		"retention.bytes":                {-1 << 63, 1<<63 - 1}, // no validator: any long
		"retention.ms":                   {-1, 1<<63 - 1},
		"segment.bytes":                  {1 << 20, 1<<31 - 1}, // 1 MiB since Kafka 4.0 (KIP-1030)
		"segment.index.bytes":            {4, 1<<31 - 1},
		"segment.ms":                     {1, 1<<63 - 1},
	},
	IntAlso: map[string]int64{"compression.gzip.level": -1},
	Doubles: map[string][2]float64{"min.cleanable.dirty.ratio": {0, 1}},
	Enums: map[string][]string{
		"cleanup.policy":         {"compact", "delete"},
		"compression.type":       {"uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"},
		"message.timestamp.type": {"CreateTime", "LogAppendTime"},
	},
	Patterns: map[string]pattern{
		"leader.replication.throttled.replicas":   throttledReplicas,
		"follower.replication.throttled.replicas": throttledReplicas,
	},
}

// throttledReplicas is the form of the *.replication.throttled.replicas
// lists: "*", or partitionId:brokerId entries.
var throttledReplicas = pattern{
	RE:   regexp.MustCompile(`^(\*|[0-9]+:[0-9]+)$`),
	Want: `"*" or a list of partitionId:brokerId`,
}
