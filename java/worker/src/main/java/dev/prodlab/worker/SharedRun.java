package dev.prodlab.worker;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A run request with "producers": one sub-request per producer instance,
 * run concurrently in this JVM, each by its own TrialRunner with its own
 * KafkaProducer (its own buffer, I/O thread and connections). Each sends
 * progress under its own id; the answer is one result with every
 * producer's result in order (docs/worker-protocol.md, "Many producers").
 */
final class SharedRun {
    private SharedRun() {}

    /**
     * Runs the producers of msg and returns the combined result. running
     * is told the runners while they run (so that a cancel reaches them all)
     * and an empty list after.
     */
    static JsonObject run(JsonObject msg, Protocol out, Consumer<List<TrialRunner>> running) {
        long id = msg.has("id") ? msg.get("id").getAsLong() : 0;
        List<RunRequest> reqs = new ArrayList<>();
        try {
            JsonElement ps = msg.get("producers");
            if (!ps.isJsonArray() || ps.getAsJsonArray().isEmpty()) {
                throw new IllegalArgumentException("producers must be a non-empty array");
            }
            for (JsonElement p : ps.getAsJsonArray()) {
                if (!p.isJsonObject()) {
                    throw new IllegalArgumentException("each producer must be a run request object");
                }
                reqs.add(RunRequest.parse(p.getAsJsonObject()));
            }
        } catch (RuntimeException e) {
            return Protocol.failure(id, "bad run request: " + e.getMessage(), "this is a prodlab bug");
        }
        List<TrialRunner> runners = new ArrayList<>();
        for (RunRequest r : reqs) {
            runners.add(new TrialRunner(r, out));
        }
        JsonObject[] results = new JsonObject[runners.size()];
        List<Thread> threads = new ArrayList<>();
        running.accept(runners);
        try {
            for (int i = 0; i < runners.size(); i++) {
                int n = i;
                Thread t = new Thread(() -> results[n] = runOne(runners.get(n), reqs.get(n).id), "prodlab-producer-" + (i + 1));
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                joinUninterruptibly(t);
            }
        } finally {
            running.accept(List.of());
        }
        JsonObject o = new JsonObject();
        o.addProperty("op", "result");
        o.addProperty("id", id);
        o.addProperty("ok", true);
        JsonArray arr = new JsonArray();
        for (JsonObject r : results) {
            arr.add(r);
        }
        o.add("producers", arr);
        return o;
    }

    /** Runs one producer; an unexpected exception becomes its failed result. */
    private static JsonObject runOne(TrialRunner r, long id) {
        try {
            return r.run();
        } catch (RuntimeException | Error e) {
            return Protocol.failure(id, "producer thread: " + e, "this is a prodlab bug");
        }
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
