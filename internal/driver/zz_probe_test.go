package driver

import (
	"fmt"
	"testing"

	"github.com/prodlab/prodlab/internal/kafkaconf"
)

func TestZZProbe(t *testing.T) {
	fmt.Println("direct:", CheckLibrdkafka("librdkafka@2.3.0", map[string]string{"acks": "all"}, "/nonexistent/w"))
	fmt.Println("direct good:", CheckLibrdkafka("librdkafka@2.11.1", map[string]string{"acks": "all"}, "/nonexistent/w"))
	fmt.Println("via Check:", Check("librdkafka@2.3.0", map[string]string{"acks": "all"}))
	for _, k := range []string{"buffer.memory", "max.request.size", "transaction.duration.ms", "ssl.truststore.password", "ssl.keystore.type", "key.serializer", "partitioner.class", "max.block.ms", "foo.bar", "linger.mss", "max.buffered.records", "enable.gapless.guarantee", "group.id"} {
		_, err := LibrdkafkaConfig(map[string]string{k: "1"})
		fmt.Println(k, "=>", err)
	}
	for _, k := range []string{"batch.num.messages", "queue.buffering.max.kbytes", "queue.buffering.max.messages", "sasl.username", "ssl.ca.pem", "max.in.flight", "sticky.partitioning.linger.ms", "debug", "enable.gapless.guarantee", "compression.codec", "request.required.acks", "message.timeout.ms", "socket.timeout.ms"} {
		fmt.Println(k, "=>", CheckJava("java@4.1.0", map[string]string{k: "1"}))
	}
	c, err := LibrdkafkaConfig(map[string]string{"sasl.jaas.config": `x required username="u" password="p\"q";`, "security.protocol": "SASL_SSL", "ssl.truststore.type": "JKS", "ssl.truststore.password": "x"})
	fmt.Println(c, err)
	fmt.Println(kafkaconf.CheckProducer("security.protocol", "sasl_ssl"), kafkaconf.CheckProducer("linger.ms", "0.5"), kafkaconf.CheckProducer("acks", "all"))
	fmt.Println(librdkafkaEffective(map[string]string{"ssl.key.pem": "PRIVATE", "sasl.password": "x", "group.id": "g", "sasl.oauthbearer.config": "clientSecret=abc", "sasl.oauthbearer.assertion.private.key.pem": "K"}))
	p, _ := kafkaconf.Librdkafka("compression.codec")
	fmt.Printf("%+v\n", p)
}
