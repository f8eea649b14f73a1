package secret

// JavaPasswords are the producer properties that the Java client
// (kafka-clients) types as PASSWORD in its ConfigDef, in any release prodlab
// supports (3.0 to 4.4): the union over those releases. The client itself
// prints these as [hidden]; prodlab must too, whatever their names say
// (sasl.oauthbearer.assertion.private.key.passphrase has neither "password"
// nor "secret" in it). TestJavaPasswordsCoverConfigDef in internal/driver
// reads each release's ConfigDef through the worker and fails when a
// release types a property as PASSWORD that this table lacks.
var JavaPasswords = []string{
	"sasl.jaas.config",
	"sasl.oauthbearer.assertion.private.key.passphrase", // 4.1+
	"sasl.oauthbearer.client.credentials.client.secret", // 4.1+
	"ssl.key.password",
	"ssl.keystore.certificate.chain", // PEM; typed PASSWORD by the client
	"ssl.keystore.key",
	"ssl.keystore.password",
	"ssl.truststore.certificates", // PEM; typed PASSWORD by the client
	"ssl.truststore.password",
}

// javaPasswords is JavaPasswords as a set.
var javaPasswords = func() map[string]bool {
	m := make(map[string]bool, len(JavaPasswords)+len(LibrdkafkaSecrets))
	for _, k := range JavaPasswords {
		m[k] = true
	}
	for _, k := range LibrdkafkaSecrets {
		m[k] = true
	}
	return m
}()

// LibrdkafkaSecrets are librdkafka's properties that hold secrets without
// saying so in their names (a PEM private key, the OAUTHBEARER
// configuration); sasl.password, ssl.key.password and the like are caught
// by their names.
var LibrdkafkaSecrets = []string{"ssl.key.pem", "ssl_key", "sasl.oauthbearer.config", "sasl.oauthbearer.assertion.private.key.pem"}
