package dev.prodlab.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The transactional schedule: its settings, when a transaction ends, the abort choice and the report. */
class TransactionsTest {
    private static final long MS = 1_000_000L;
    /** A nanoTime well away from 0, which due() takes for "not started". */
    private static final long T0 = 10_000 * MS;

    private static Transactions parse(Map<String, String> props) throws TrialRunner.Rejected {
        return Transactions.of(props, 7, "p0");
    }

    @Test
    void settings() throws Exception {
        record Case(String name, Map<String, String> props, long everyNanos, long records, double ratio) {}
        List<Case> cases = List.of(
                new Case("no keys: no bound (the driver always sends one)", Map.of(), 0, 0, 0),
                new Case("records only: no time bound", Map.of(Transactions.RECORDS, "100"), 0, 100, 0),
                new Case("duration only", Map.of(Transactions.DURATION, "250"), 250 * MS, 0, 0),
                new Case("both, and a ratio with blanks",
                        Map.of(Transactions.DURATION, " 40 ", Transactions.RECORDS, "7", Transactions.ABORT_RATIO, " 0.25 "),
                        40 * MS, 7, 0.25),
                new Case("ratio 0", Map.of(Transactions.DURATION, "3000", Transactions.ABORT_RATIO, "0"), 3000 * MS, 0, 0),
                new Case("ratio 1 is allowed", Map.of(Transactions.DURATION, "3000", Transactions.ABORT_RATIO, "1"), 3000 * MS, 0, 1));
        for (Case c : cases) {
            Transactions t = parse(c.props);
            assertEquals(c.everyNanos, t.everyNanos, c.name + ": everyNanos");
            assertEquals(c.records, t.records, c.name + ": records");
            assertEquals(c.ratio, t.abortRatio, 0.0, c.name + ": abortRatio");
        }
    }

    @Test
    void badSettingsAreRejected() {
        String[][] cases = {
            {Transactions.ABORT_RATIO, "1.5"},
            {Transactions.ABORT_RATIO, "-0.1"},
            {Transactions.ABORT_RATIO, "x"},
            {Transactions.ABORT_RATIO, "NaN"},
            {Transactions.RECORDS, "0"},
            {Transactions.RECORDS, "abc"},
            {Transactions.RECORDS, "-3"},
            {Transactions.DURATION, "0"},
            {Transactions.DURATION, "-5"},
        };
        for (String[] c : cases) {
            String key = c[0];
            String value = c[1];
            TrialRunner.Rejected e = assertThrows(TrialRunner.Rejected.class, () -> parse(Map.of(key, value)),
                    key + "=" + value + " was accepted");
            assertTrue(e.getMessage().contains(key), key + "=" + value + ": message does not name the key: " + e.getMessage());
            assertTrue(e.getMessage().contains(value), key + "=" + value + ": message does not quote the value: " + e.getMessage());
            assertTrue(e.hint != null && e.hint.contains(key), key + "=" + value + ": hint does not name the key: " + e.hint);
        }
    }

    @Test
    void firstCallStartsTheClock() {
        Transactions t = new Transactions(1000, 0, 0, 1, "p0");
        assertFalse(t.due(T0, 0), "the first call ended a transaction");
        // Measured from T0, not from 0: 500 ms in, a 1 s transaction is still open.
        assertFalse(t.due(T0 + 500 * MS, 1), "the clock did not start at the first call");
        assertTrue(t.due(T0 + 1000 * MS, 2), "a 1 s transaction did not end after 1 s");
    }

    @Test
    void endsOnRecordCount() {
        Transactions t = new Transactions(0, 3, 0, 1, "p0"); // records only: no time bound
        assertFalse(t.due(T0, 0));
        assertFalse(t.due(T0 + 3_600_000 * MS, 1), "an hour ended a transaction with no time bound");
        assertFalse(t.due(T0 + 3_600_000 * MS, 2), "2 records ended a 3-record transaction");
        assertTrue(t.due(T0, 3), "3 records did not end a 3-record transaction");

        // After a commit the count starts again at the commit's next sequence number.
        t.committed(3, MS);
        long now = System.nanoTime();
        assertFalse(t.due(now, 5), "2 records after the commit ended the transaction");
        assertTrue(t.due(now, 6), "3 records after the commit did not end the transaction");
    }

    @Test
    void endsOnTime() {
        Transactions t = new Transactions(100, 0, 0, 1, "p0"); // time only
        assertFalse(t.due(T0, 0));
        assertFalse(t.due(T0 + 99 * MS, 1_000_000), "a million records ended a transaction with no count bound");
        assertTrue(t.due(T0 + 100 * MS, 1_000_001), "100 ms did not end a 100 ms transaction");

        Transactions both = new Transactions(100, 10, 0, 1, "p0"); // whichever comes first
        assertFalse(both.due(T0, 0));
        assertTrue(both.due(T0 + 100 * MS, 2), "time did not end the transaction before the count");
    }

    @Test
    void neverEndsAnEmptyTransaction() {
        Transactions t = new Transactions(100, 1, 0, 1, "p0");
        assertFalse(t.due(T0, 7));
        assertFalse(t.due(T0 + 10_000 * MS, 7), "a transaction without records ended");
        assertTrue(t.due(T0 + 10_000 * MS, 8), "a transaction with a record did not end");

        t.committed(8, MS);
        long later = System.nanoTime() + 10_000 * MS;
        assertFalse(t.due(later, 8), "the transaction after a commit ended before holding a record");
        assertTrue(t.due(later, 9));
    }

    private static List<Boolean> draws(double ratio, long seed, String tag, int n) {
        Transactions t = new Transactions(1000, 0, ratio, seed, tag);
        List<Boolean> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(t.abortNext());
        }
        return out;
    }

    @Test
    void abortChoiceRepeatsForTheSameSeedAndTag() {
        List<Boolean> a = draws(0.5, 42, "p0", 200);
        assertEquals(a, draws(0.5, 42, "p0", 200), "the same seed and tag drew differently");
        assertNotEquals(a, draws(0.5, 42, "p1", 200), "producers of a trial drew the same aborts");
        assertNotEquals(a, draws(0.5, 43, "p0", 200), "another seed drew the same aborts");
    }

    @Test
    void abortChoiceFollowsTheRatio() {
        long aborts = draws(0.2, 42, "p0", 1000).stream().filter(b -> b).count();
        assertTrue(aborts >= 150 && aborts <= 250, aborts + " of 1000 aborted at ratio 0.2");
        assertFalse(draws(0, 42, "p0", 1000).contains(true), "ratio 0 aborted");
        assertFalse(draws(1, 42, "p0", 1000).contains(false), "ratio 1 committed");
    }

    private static Transactions commitThenAbort(boolean failedCommit) {
        Transactions t = new Transactions(1000, 0, 0, 1, "p0");
        t.due(T0, 0);
        t.committed(5, 2 * MS);
        t.aborted(8, failedCommit);
        return t;
    }

    @Test
    void reportHoldsTheFatesAndFigures() {
        JsonObject result = new JsonObject();
        JsonObject metrics = new JsonObject();
        commitThenAbort(false).report(result, metrics, true);
        assertEquals("[[0,5]]", String.valueOf(result.get("committed_ranges")), result.toString());
        assertEquals("[[5,8]]", String.valueOf(result.get("aborted_ranges")), result.toString());
        assertEquals(0, metrics.get("transactions-commit-failed").getAsLong(), metrics.toString());
        assertEquals(4.0, metrics.get("records-per-transaction-avg").getAsDouble(), 1e-9, metrics.toString());
        assertEquals(2.0, metrics.get("transaction-commit-p50-ms").getAsDouble(), 0.01, metrics.toString());
    }

    @Test
    void reportCountsFailedCommits() {
        JsonObject result = new JsonObject();
        JsonObject metrics = new JsonObject();
        commitThenAbort(true).report(result, metrics, true);
        assertEquals(1, metrics.get("transactions-commit-failed").getAsLong(), metrics.toString());
        assertEquals("[[5,8]]", String.valueOf(result.get("aborted_ranges")), result.toString());
    }

    @Test
    void reportWithoutTrackingHasNoRanges() {
        JsonObject result = new JsonObject();
        JsonObject metrics = new JsonObject();
        commitThenAbort(false).report(result, metrics, false);
        assertNull(result.get("committed_ranges"), result.toString());
        assertNull(result.get("aborted_ranges"), result.toString());
        assertEquals(4.0, metrics.get("records-per-transaction-avg").getAsDouble(), 1e-9, metrics.toString());
    }
}
