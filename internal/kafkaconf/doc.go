// Package kafkaconf is the one owner of producer settings. Experiments,
// perf flags and drivers write producer settings as a map of Java property
// names to strings; kafkaconf names the settings prodlab interprets
// (constants), checks any value against Kafka's ConfigDef type and
// validators (CheckProducer, Rules), parses the interpreted ones once into a
// typed Producer (Parse), and states the clients' defaults for them
// (JavaDefaults, FranzDefaults). So a setting is read the same way
// everywhere, and code that searches over settings has one small struct to
// vary. It imports nothing of prodlab.
package kafkaconf
