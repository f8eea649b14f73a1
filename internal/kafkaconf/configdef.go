package kafkaconf

import "sort"

// Type is the type of a Kafka configuration as declared in Kafka's
// ConfigDef (org.apache.kafka.common.config.ConfigDef.Type). It decides how
// a value written as a string is checked.
type Type int

// The ConfigDef types.
const (
	TypeString Type = iota
	TypeInt
	TypeLong
	TypeShort
	TypeDouble
	TypeBool
	TypeList
	TypeClass
	TypePassword
)

// producerConfigs lists every configuration accepted by the Java producer of
// Apache Kafka 4.x with its ConfigDef type.
//
// Source: Apache Kafka 4.x clients —
// org.apache.kafka.clients.producer.ProducerConfig (which includes
// CommonClientConfigs), SslConfigs.addClientSslSupport and
// SaslConfigs.addClientSaslSupport. Keep it in step when Kafka adds a setting.
var producerConfigs = map[string]Type{
	// ProducerConfig and CommonClientConfigs.
	"acks":                                     TypeString,
	"batch.size":                               TypeInt,
	"bootstrap.servers":                        TypeList,
	"buffer.memory":                            TypeLong,
	"client.dns.lookup":                        TypeString,
	"client.id":                                TypeString,
	"compression.type":                         TypeString,
	"compression.gzip.level":                   TypeInt,
	"compression.lz4.level":                    TypeInt,
	"compression.zstd.level":                   TypeInt,
	"connections.max.idle.ms":                  TypeLong,
	"delivery.timeout.ms":                      TypeInt,
	"enable.idempotence":                       TypeBool,
	"enable.metrics.push":                      TypeBool,
	"interceptor.classes":                      TypeList,
	"key.serializer":                           TypeClass,
	"linger.ms":                                TypeLong,
	"max.block.ms":                             TypeLong,
	"max.in.flight.requests.per.connection":    TypeInt,
	"max.request.size":                         TypeInt,
	"metadata.max.age.ms":                      TypeLong,
	"metadata.max.idle.ms":                     TypeLong,
	"metadata.recovery.strategy":               TypeString,
	"metadata.recovery.rebootstrap.trigger.ms": TypeLong,
	"metric.reporters":                         TypeList,
	"metrics.num.samples":                      TypeInt,
	"metrics.recording.level":                  TypeString,
	"metrics.sample.window.ms":                 TypeLong,
	"partitioner.adaptive.partitioning.enable": TypeBool,
	"partitioner.availability.timeout.ms":      TypeLong,
	"partitioner.class":                        TypeClass,
	"partitioner.ignore.keys":                  TypeBool,
	"receive.buffer.bytes":                     TypeInt,
	"reconnect.backoff.max.ms":                 TypeLong,
	"reconnect.backoff.ms":                     TypeLong,
	"request.timeout.ms":                       TypeInt,
	"retries":                                  TypeInt,
	"retry.backoff.max.ms":                     TypeLong,
	"retry.backoff.ms":                         TypeLong,
	"security.protocol":                        TypeString,
	"security.providers":                       TypeString,
	"send.buffer.bytes":                        TypeInt,
	"socket.connection.setup.timeout.max.ms":   TypeLong,
	"socket.connection.setup.timeout.ms":       TypeLong,
	"transaction.timeout.ms":                   TypeInt,
	"transaction.two.phase.commit.enable":      TypeBool,
	"transactional.id":                         TypeString,
	"value.serializer":                         TypeClass,

	// SslConfigs.addClientSslSupport.
	"ssl.cipher.suites":                     TypeList,
	"ssl.enabled.protocols":                 TypeList,
	"ssl.endpoint.identification.algorithm": TypeString,
	"ssl.engine.factory.class":              TypeClass,
	"ssl.key.password":                      TypePassword,
	"ssl.keymanager.algorithm":              TypeString,
	"ssl.keystore.certificate.chain":        TypePassword,
	"ssl.keystore.key":                      TypePassword,
	"ssl.keystore.location":                 TypeString,
	"ssl.keystore.password":                 TypePassword,
	"ssl.keystore.type":                     TypeString,
	"ssl.protocol":                          TypeString,
	"ssl.provider":                          TypeString,
	"ssl.secure.random.implementation":      TypeString,
	"ssl.trustmanager.algorithm":            TypeString,
	"ssl.truststore.certificates":           TypePassword,
	"ssl.truststore.location":               TypeString,
	"ssl.truststore.password":               TypePassword,
	"ssl.truststore.type":                   TypeString,

	// SaslConfigs.addClientSaslSupport.
	"sasl.client.callback.handler.class":                  TypeClass,
	"sasl.jaas.config":                                    TypePassword,
	"sasl.kerberos.kinit.cmd":                             TypeString,
	"sasl.kerberos.min.time.before.relogin":               TypeLong,
	"sasl.kerberos.service.name":                          TypeString,
	"sasl.kerberos.ticket.renew.jitter":                   TypeDouble,
	"sasl.kerberos.ticket.renew.window.factor":            TypeDouble,
	"sasl.login.callback.handler.class":                   TypeClass,
	"sasl.login.class":                                    TypeClass,
	"sasl.login.connect.timeout.ms":                       TypeInt,
	"sasl.login.read.timeout.ms":                          TypeInt,
	"sasl.login.refresh.buffer.seconds":                   TypeShort,
	"sasl.login.refresh.min.period.seconds":               TypeShort,
	"sasl.login.refresh.window.factor":                    TypeDouble,
	"sasl.login.refresh.window.jitter":                    TypeDouble,
	"sasl.login.retry.backoff.max.ms":                     TypeLong,
	"sasl.login.retry.backoff.ms":                         TypeLong,
	"sasl.mechanism":                                      TypeString,
	"sasl.oauthbearer.assertion.algorithm":                TypeString,
	"sasl.oauthbearer.assertion.claim.aud":                TypeString,
	"sasl.oauthbearer.assertion.claim.exp.seconds":        TypeInt,
	"sasl.oauthbearer.assertion.claim.iss":                TypeString,
	"sasl.oauthbearer.assertion.claim.jti.include":        TypeBool,
	"sasl.oauthbearer.assertion.claim.nbf.seconds":        TypeInt,
	"sasl.oauthbearer.assertion.claim.sub":                TypeString,
	"sasl.oauthbearer.assertion.file":                     TypeString,
	"sasl.oauthbearer.assertion.private.key.file":         TypeString,
	"sasl.oauthbearer.assertion.private.key.passphrase":   TypePassword,
	"sasl.oauthbearer.assertion.template.file":            TypeString,
	"sasl.oauthbearer.client.credentials.client.id":       TypeString,
	"sasl.oauthbearer.client.credentials.client.secret":   TypePassword,
	"sasl.oauthbearer.clock.skew.seconds":                 TypeInt,
	"sasl.oauthbearer.expected.audience":                  TypeList,
	"sasl.oauthbearer.expected.issuer":                    TypeString,
	"sasl.oauthbearer.header.urlencode":                   TypeBool,
	"sasl.oauthbearer.jwks.endpoint.refresh.ms":           TypeLong,
	"sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms": TypeLong,
	"sasl.oauthbearer.jwks.endpoint.retry.backoff.ms":     TypeLong,
	"sasl.oauthbearer.jwks.endpoint.url":                  TypeString,
	"sasl.oauthbearer.jwt.retriever.class":                TypeClass,
	"sasl.oauthbearer.jwt.validator.class":                TypeClass,
	"sasl.oauthbearer.scope":                              TypeString,
	"sasl.oauthbearer.scope.claim.name":                   TypeString,
	"sasl.oauthbearer.sub.claim.name":                     TypeString,
	"sasl.oauthbearer.token.endpoint.url":                 TypeString,
}

// producerExtensions are prodlab's own producer settings with their types.
var producerExtensions = map[string]Type{
	MaxBufferedRecords:    TypeLong,
	TransactionDurationMs: TypeLong,
	TransactionRecords:    TypeLong,
	TransactionAbortRatio: TypeDouble,
}

// ProducerType returns the type of a producer setting, Kafka's (the Java
// producer's), librdkafka's or prodlab's, and whether it is known. A
// librdkafka setting is typed as a string here: its client checks the
// value itself before anything starts (driver's librdkafka check).
func ProducerType(name string) (Type, bool) {
	if t, ok := producerConfigs[name]; ok {
		return t, true
	}
	if t, ok := producerExtensions[name]; ok {
		return t, true
	}
	if _, ok := Librdkafka(name); ok {
		return TypeString, true
	}
	return 0, false
}

// ProducerNames returns every producer setting name, Kafka's (the Java
// producer's), librdkafka's and prodlab's, sorted.
func ProducerNames() []string {
	out := make([]string, 0, len(producerConfigs)+len(producerExtensions))
	for n := range producerConfigs {
		out = append(out, n)
	}
	for n := range producerExtensions {
		out = append(out, n)
	}
	for _, n := range LibrdkafkaNames() {
		if _, java := producerConfigs[n]; !java {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// CheckProducer checks a value of the producer setting name against its
// ConfigDef type and Kafka's validators, as the Java producer would; an
// unknown name is not checked (the caller refuses unknown names itself).
func CheckProducer(name, v string) error {
	t, _ := ProducerType(name)
	return producerRules.Check(name, v, t)
}

// producerIntRanges are the valid ranges of integer producer settings where
// Kafka's ConfigDef declares one other than "at least 0".
var producerIntRanges = map[string][2]int64{
	"compression.gzip.level": {1, 9},
	"compression.lz4.level":  {1, 17},
	"compression.zstd.level": {-131072, 22},
	MaxInFlight:              {1, 1<<31 - 1},
	"metrics.num.samples":    {1, 1<<31 - 1},
	"receive.buffer.bytes":   {-1, 1<<31 - 1},
	"send.buffer.bytes":      {-1, 1<<31 - 1},
	MaxBufferedRecords:       {1, 1<<63 - 1},
}

// producerIntAlso are values accepted outside an integer producer
// setting's range: gzip's level is 1..9 or -1 (the codec's default), as
// CompressionType.GZIP.levelValidator() declares.
var producerIntAlso = map[string]int64{"compression.gzip.level": -1}

// producerEnums are the accepted values of enumerated producer settings.
var producerEnums = map[string][]string{
	"acks":                       {"0", "1", "-1", "all"},
	"compression.type":           {"none", "gzip", "snappy", "lz4", "zstd"},
	"client.dns.lookup":          {"use_all_dns_ips", "resolve_canonical_bootstrap_servers_only"},
	"metadata.recovery.strategy": {"none", "rebootstrap"},
	"metrics.recording.level":    {"INFO", "DEBUG", "TRACE"},
	"security.protocol":          {"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"},
}

// producerRules are the value rules of producer settings.
var producerRules = Rules{Ints: producerIntRanges, IntAlso: producerIntAlso, Enums: producerEnums, FoldEnums: producerFoldEnums}

// producerFoldEnums are the enumerated producer settings the Java client
// reads in any case (CommonClientConfigs defines both with
// ConfigDef.CaseInsensitiveValidString).
var producerFoldEnums = map[string]bool{"security.protocol": true, "metadata.recovery.strategy": true}
