package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Failure messages carry the cause the client wraps deepest. */
class MessageTest {
    @Test
    void messages() {
        Exception root = new IllegalArgumentException("JAAS config entry not terminated by semi-colon");
        Exception mid = new IllegalStateException("Failed to create new NetworkClient", root);
        Exception top = new RuntimeException("Failed to construct kafka producer", mid);
        String[][] cases = {
            {Failures.message(new RuntimeException("alone")), "RuntimeException: alone"},
            {Failures.message(mid), "IllegalStateException: Failed to create new NetworkClient"
                    + " (caused by IllegalArgumentException: JAAS config entry not terminated by semi-colon)"},
            {Failures.message(top), "RuntimeException: Failed to construct kafka producer"
                    + " (caused by IllegalStateException: Failed to create new NetworkClient;"
                    + " root cause IllegalArgumentException: JAAS config entry not terminated by semi-colon)"},
        };
        for (String[] c : cases) {
            assertEquals(c[1], c[0]);
        }
    }
}
