package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Configurations the client rejects need no broker: the producer constructor throws. */
class ConfigErrorTest {
    private static JsonObject run(Map<String, String> props) {
        RunRequest r = new RunRequest();
        r.id = 9;
        r.bootstrap = "127.0.0.1:1";
        r.topic = "t";
        r.records = 10;
        r.recordSize = 200;
        r.props.putAll(props);
        return new TrialRunner(r, null).run();
    }

    private static void assertRejected(JsonObject res, String clientMessage, String hintPart) {
        assertEquals("result", res.get("op").getAsString());
        assertEquals(9, res.get("id").getAsLong());
        assertFalse(res.get("ok").getAsBoolean(), res.toString());
        assertEquals(clientMessage, res.get("error").getAsString());
        assertTrue(res.get("hint").getAsString().contains(hintPart), res.get("hint").getAsString());
    }

    @Test
    void idempotenceWithAcksOne() {
        assertRejected(run(Map.of("enable.idempotence", "true", "acks", "1")),
                "Must set acks to all in order to use the idempotent producer. Otherwise we cannot guarantee idempotence.",
                "acks=all");
    }

    @Test
    void idempotenceWithTooManyInFlight() {
        // The wording differs between client versions; both name the property and the limit.
        JsonObject res = run(Map.of("max.in.flight.requests.per.connection", "6", "enable.idempotence", "true"));
        assertFalse(res.get("ok").getAsBoolean(), res.toString());
        String msg = res.get("error").getAsString();
        assertTrue(msg.contains("max.in.flight.requests.per.connection") && msg.contains("at most 5"), msg);
        assertTrue(res.get("hint").getAsString().contains("at most 5"));
    }

    @Test
    void badValue() {
        JsonObject res = run(Map.of("linger.ms", "soon"));
        assertFalse(res.get("ok").getAsBoolean());
        assertTrue(res.get("error").getAsString().contains("linger.ms"), res.toString());
    }

    @Test
    void unknownProperty() {
        assertRejected(run(Map.of("max.buffered.records", "10")),
                "unknown producer property max.buffered.records for kafka-clients " + TrialRunner.clientVersion(),
                "property name");
    }

    @Test
    void badTransactionDuration() {
        JsonObject res = run(Map.of("transaction.duration.ms", "-1"));
        assertFalse(res.get("ok").getAsBoolean());
        assertTrue(res.get("error").getAsString().contains("transaction.duration.ms"), res.toString());
    }

    @Test
    void effectiveConfigMasksSecrets() {
        RunRequest r = new RunRequest();
        r.bootstrap = "127.0.0.1:1";
        r.props.put("ssl.key.password", "s3cret");
        r.props.put("sasl.jaas.config", "org.example.Login required password=\"x\";");
        Map<String, String> eff = ProducerProps.effective(new org.apache.kafka.clients.producer.ProducerConfig(
                ProducerProps.of(r)));
        assertEquals("[hidden]", eff.get("ssl.key.password"));
        assertEquals("[hidden]", eff.get("sasl.jaas.config"));
        assertEquals("", eff.get("ssl.truststore.password"), "unset secrets stay empty");
        assertEquals("org.apache.kafka.common.serialization.ByteArraySerializer", eff.get("value.serializer"));
        assertTrue(eff.containsKey("batch.size"), "defaults are included");
        assertFalse(eff.values().stream().anyMatch(v -> v.contains("s3cret")));
    }
}
