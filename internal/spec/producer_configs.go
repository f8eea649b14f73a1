package spec

// configType is the type of a Kafka configuration as declared in Kafka's
// ConfigDef (org.apache.kafka.common.config.ConfigDef.Type). It decides how a
// value written as a string is checked.
type configType int

const (
	typeString configType = iota
	typeInt
	typeLong
	typeShort
	typeDouble
	typeBool
	typeList
	typeClass
	typePassword
)

// producerConfigs lists every configuration accepted by the Java producer of
// Apache Kafka 4.x with its ConfigDef type.
//
// Source: Apache Kafka 4.x clients —
// org.apache.kafka.clients.producer.ProducerConfig (which includes
// CommonClientConfigs), SslConfigs.addClientSslSupport and
// SaslConfigs.addClientSaslSupport. Keep it in step when Kafka adds a setting.
var producerConfigs = map[string]configType{
	// ProducerConfig and CommonClientConfigs.
	"acks":                                     typeString,
	"batch.size":                               typeInt,
	"bootstrap.servers":                        typeList,
	"buffer.memory":                            typeLong,
	"client.dns.lookup":                        typeString,
	"client.id":                                typeString,
	"compression.type":                         typeString,
	"compression.gzip.level":                   typeInt,
	"compression.lz4.level":                    typeInt,
	"compression.zstd.level":                   typeInt,
	"connections.max.idle.ms":                  typeLong,
	"delivery.timeout.ms":                      typeInt,
	"enable.idempotence":                       typeBool,
	"enable.metrics.push":                      typeBool,
	"interceptor.classes":                      typeList,
	"key.serializer":                           typeClass,
	"linger.ms":                                typeLong,
	"max.block.ms":                             typeLong,
	"max.in.flight.requests.per.connection":    typeInt,
	"max.request.size":                         typeInt,
	"metadata.max.age.ms":                      typeLong,
	"metadata.max.idle.ms":                     typeLong,
	"metadata.recovery.strategy":               typeString,
	"metadata.recovery.rebootstrap.trigger.ms": typeLong,
	"metric.reporters":                         typeList,
	"metrics.num.samples":                      typeInt,
	"metrics.recording.level":                  typeString,
	"metrics.sample.window.ms":                 typeLong,
	"partitioner.adaptive.partitioning.enable": typeBool,
	"partitioner.availability.timeout.ms":      typeLong,
	"partitioner.class":                        typeClass,
	"partitioner.ignore.keys":                  typeBool,
	"receive.buffer.bytes":                     typeInt,
	"reconnect.backoff.max.ms":                 typeLong,
	"reconnect.backoff.ms":                     typeLong,
	"request.timeout.ms":                       typeInt,
	"retries":                                  typeInt,
	"retry.backoff.max.ms":                     typeLong,
	"retry.backoff.ms":                         typeLong,
	"security.protocol":                        typeString,
	"security.providers":                       typeString,
	"send.buffer.bytes":                        typeInt,
	"socket.connection.setup.timeout.max.ms":   typeLong,
	"socket.connection.setup.timeout.ms":       typeLong,
	"transaction.timeout.ms":                   typeInt,
	"transaction.two.phase.commit.enable":      typeBool,
	"transactional.id":                         typeString,
	"value.serializer":                         typeClass,

	// SslConfigs.addClientSslSupport.
	"ssl.cipher.suites":                     typeList,
	"ssl.enabled.protocols":                 typeList,
	"ssl.endpoint.identification.algorithm": typeString,
	"ssl.engine.factory.class":              typeClass,
	"ssl.key.password":                      typePassword,
	"ssl.keymanager.algorithm":              typeString,
	"ssl.keystore.certificate.chain":        typePassword,
	"ssl.keystore.key":                      typePassword,
	"ssl.keystore.location":                 typeString,
	"ssl.keystore.password":                 typePassword,
	"ssl.keystore.type":                     typeString,
	"ssl.protocol":                          typeString,
	"ssl.provider":                          typeString,
	"ssl.secure.random.implementation":      typeString,
	"ssl.trustmanager.algorithm":            typeString,
	"ssl.truststore.certificates":           typePassword,
	"ssl.truststore.location":               typeString,
	"ssl.truststore.password":               typePassword,
	"ssl.truststore.type":                   typeString,

	// SaslConfigs.addClientSaslSupport.
	"sasl.client.callback.handler.class":                  typeClass,
	"sasl.jaas.config":                                    typePassword,
	"sasl.kerberos.kinit.cmd":                             typeString,
	"sasl.kerberos.min.time.before.relogin":               typeLong,
	"sasl.kerberos.service.name":                          typeString,
	"sasl.kerberos.ticket.renew.jitter":                   typeDouble,
	"sasl.kerberos.ticket.renew.window.factor":            typeDouble,
	"sasl.login.callback.handler.class":                   typeClass,
	"sasl.login.class":                                    typeClass,
	"sasl.login.connect.timeout.ms":                       typeInt,
	"sasl.login.read.timeout.ms":                          typeInt,
	"sasl.login.refresh.buffer.seconds":                   typeShort,
	"sasl.login.refresh.min.period.seconds":               typeShort,
	"sasl.login.refresh.window.factor":                    typeDouble,
	"sasl.login.refresh.window.jitter":                    typeDouble,
	"sasl.login.retry.backoff.max.ms":                     typeLong,
	"sasl.login.retry.backoff.ms":                         typeLong,
	"sasl.mechanism":                                      typeString,
	"sasl.oauthbearer.assertion.algorithm":                typeString,
	"sasl.oauthbearer.assertion.claim.aud":                typeString,
	"sasl.oauthbearer.assertion.claim.exp.seconds":        typeInt,
	"sasl.oauthbearer.assertion.claim.iss":                typeString,
	"sasl.oauthbearer.assertion.claim.jti.include":        typeBool,
	"sasl.oauthbearer.assertion.claim.nbf.seconds":        typeInt,
	"sasl.oauthbearer.assertion.claim.sub":                typeString,
	"sasl.oauthbearer.assertion.file":                     typeString,
	"sasl.oauthbearer.assertion.private.key.file":         typeString,
	"sasl.oauthbearer.assertion.private.key.passphrase":   typePassword,
	"sasl.oauthbearer.assertion.template.file":            typeString,
	"sasl.oauthbearer.client.credentials.client.id":       typeString,
	"sasl.oauthbearer.client.credentials.client.secret":   typePassword,
	"sasl.oauthbearer.clock.skew.seconds":                 typeInt,
	"sasl.oauthbearer.expected.audience":                  typeList,
	"sasl.oauthbearer.expected.issuer":                    typeString,
	"sasl.oauthbearer.header.urlencode":                   typeBool,
	"sasl.oauthbearer.jwks.endpoint.refresh.ms":           typeLong,
	"sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms": typeLong,
	"sasl.oauthbearer.jwks.endpoint.retry.backoff.ms":     typeLong,
	"sasl.oauthbearer.jwks.endpoint.url":                  typeString,
	"sasl.oauthbearer.jwt.retriever.class":                typeClass,
	"sasl.oauthbearer.jwt.validator.class":                typeClass,
	"sasl.oauthbearer.scope":                              typeString,
	"sasl.oauthbearer.scope.claim.name":                   typeString,
	"sasl.oauthbearer.sub.claim.name":                     typeString,
	"sasl.oauthbearer.token.endpoint.url":                 typeString,
}

// Extensions are prodlab's own producer settings. They are not Kafka
// configurations: drivers that cannot honour one must reject it.
const (
	// MaxBufferedRecords bounds the producer buffer by a record count
	// rather than by bytes (franz-go's MaxBufferedRecords).
	MaxBufferedRecords = "max.buffered.records"
	// TransactionDurationMs is how long a transactional producer keeps a
	// transaction open before committing it.
	TransactionDurationMs = "transaction.duration.ms"
)

// producerExtensions are prodlab's own producer settings with their types.
var producerExtensions = map[string]configType{
	MaxBufferedRecords:    typeLong,
	TransactionDurationMs: typeLong,
}

// producerType returns the type of a producer setting, Kafka's or
// prodlab's, and whether it is known.
func producerType(name string) (configType, bool) {
	if t, ok := producerConfigs[name]; ok {
		return t, true
	}
	t, ok := producerExtensions[name]
	return t, ok
}

// producerIntRanges are the valid ranges of integer producer settings where
// Kafka's ConfigDef declares one other than "at least 0".
var producerIntRanges = map[string][2]int64{
	"compression.gzip.level":                {1, 9},
	"compression.lz4.level":                 {1, 17},
	"compression.zstd.level":                {-131072, 22},
	"max.in.flight.requests.per.connection": {1, 1<<31 - 1},
	"metrics.num.samples":                   {1, 1<<31 - 1},
	"receive.buffer.bytes":                  {-1, 1<<31 - 1},
	"send.buffer.bytes":                     {-1, 1<<31 - 1},
	MaxBufferedRecords:                      {1, 1<<63 - 1},
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
