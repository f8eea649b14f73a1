package expfile

import "github.com/prodlab/prodlab/internal/kafkaconf"

// configRules are the value rules of one namespace of Kafka properties
// beyond their ConfigDef type (kafkaconf.Rules): topic configs keep theirs
// here, producer settings theirs in kafkaconf.
type configRules = kafkaconf.Rules

// pattern is the accepted form of a setting's value.
type pattern = kafkaconf.Pattern

// rangeText writes an integer range for messages: "in 1..3", or "≥ 0" when the
// upper bound is the type's maximum.
func rangeText(lo, hi int64) string { return kafkaconf.RangeText(lo, hi) }
