package spec

// topicConfigs lists the topic-level configurations of Apache Kafka 4.x with
// their ConfigDef types; these are the names accepted under topic.configs.
//
// Source: Apache Kafka 4.x org.apache.kafka.common.config.TopicConfig and
// the log configuration (LogConfig) that declares their types.
var topicConfigs = map[string]configType{
	"cleanup.policy":                          typeList,
	"compression.gzip.level":                  typeInt,
	"compression.lz4.level":                   typeInt,
	"compression.type":                        typeString,
	"compression.zstd.level":                  typeInt,
	"delete.retention.ms":                     typeLong,
	"file.delete.delay.ms":                    typeLong,
	"flush.messages":                          typeLong,
	"flush.ms":                                typeLong,
	"follower.replication.throttled.replicas": typeList,
	"index.interval.bytes":                    typeInt,
	"leader.replication.throttled.replicas":   typeList,
	"local.retention.bytes":                   typeLong,
	"local.retention.ms":                      typeLong,
	"max.compaction.lag.ms":                   typeLong,
	"max.message.bytes":                       typeInt,
	"message.timestamp.after.max.ms":          typeLong,
	"message.timestamp.before.max.ms":         typeLong,
	"message.timestamp.type":                  typeString,
	"min.cleanable.dirty.ratio":               typeDouble,
	"min.compaction.lag.ms":                   typeLong,
	"min.insync.replicas":                     typeInt,
	"preallocate":                             typeBool,
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

// topicIntRanges are the valid ranges of integer topic settings where they
// are not simply "at least 0".
var topicIntRanges = map[string][2]int64{
	"compression.gzip.level": {-1, 9},
	"compression.lz4.level":  {1, 17},
	"compression.zstd.level": {-131072, 22},
	"min.insync.replicas":    {1, 1<<31 - 1},
	"retention.bytes":        {-1, 1<<63 - 1},
	"retention.ms":           {-1, 1<<63 - 1},
	"local.retention.bytes":  {-2, 1<<63 - 1},
	"local.retention.ms":     {-2, 1<<63 - 1},
}

// topicEnums are the accepted values of enumerated topic settings.
var topicEnums = map[string][]string{
	"compression.type":       {"uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"},
	"message.timestamp.type": {"CreateTime", "LogAppendTime"},
}
