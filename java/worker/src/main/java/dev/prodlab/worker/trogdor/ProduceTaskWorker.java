package dev.prodlab.worker.trogdor;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.management.ManagementFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.apache.kafka.trogdor.common.Platform;
import org.apache.kafka.trogdor.task.TaskWorker;
import org.apache.kafka.trogdor.task.WorkerStatusTracker;

/**
 * Runs one prodlab trial on this agent: the spec's run request, through the
 * worker's own protocol loop in this JVM ({@link InProcessWorker}). Every
 * progress line and the final result line become the worker status (the
 * result as the worker sends it, its histogram in HdrHistogram's compressed
 * base64 encoding). The task is done when the result arrives; a failed
 * trial ends it with the worker's error message. The result carries the
 * agent JVM's CPU time during the trial (cpu_ns), the client's CPU on
 * this node: the agent itself idles meanwhile.
 */
final class ProduceTaskWorker implements TaskWorker {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String id;
    private final ProduceTaskSpec spec;
    private final AtomicBoolean running = new AtomicBoolean();
    private volatile InProcessWorker worker;

    ProduceTaskWorker(String id, ProduceTaskSpec spec) {
        this.id = id;
        this.spec = spec;
    }

    @Override
    public void start(Platform platform, WorkerStatusTracker status, KafkaFutureImpl<String> done) throws Exception {
        if (!running.compareAndSet(false, true)) {
            throw new IllegalStateException("prodlab task " + id + " is already running");
        }
        String node = platform.curNode().name();
        String request = spec.hasOwnRun(node) ? ownRequest(spec.runOf(node)) : runRequest(spec.run(), node);
        long cpuStart = processCpuNanos();
        worker = InProcessWorker.start(request, line -> onLine(line, status, done, cpuStart));
    }

    /** This JVM's CPU time (user + system) in ns; -1 where the JVM does not tell. */
    static long processCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return os.getProcessCpuTime();
        }
        return -1;
    }

    /** The {"op":"run"} line for this node: the spec's request, id 1, the audit tag suffixed with the node. */
    static String runRequest(JsonNode run, String node) {
        ObjectNode req = ((ObjectNode) run.deepCopy());
        req.put("op", "run");
        req.put("id", 1);
        JsonNode tag = req.get("tag");
        if (tag != null && tag.isTextual() && !tag.asText().isEmpty()) {
            req.put("tag", tag.asText() + "/" + node);
        }
        return req.toString();
    }

    /** The {"op":"run"} line of a node's own request: id 1, its tag as prodlab named it. */
    static String ownRequest(JsonNode run) {
        ObjectNode req = ((ObjectNode) run.deepCopy());
        req.put("op", "run");
        req.put("id", 1);
        return req.toString();
    }

    /** Publishes a worker output line; a result line, with the CPU time since cpuStart, completes the task. */
    private static void onLine(String line, WorkerStatusTracker status, KafkaFutureImpl<String> done, long cpuStart) {
        JsonNode msg;
        try {
            msg = JSON.readTree(line);
        } catch (Exception e) {
            done.complete("unreadable worker output: " + e.getMessage());
            return;
        }
        String op = msg.path("op").asText();
        switch (op) {
            case "progress":
                status.update(msg);
                break;
            case "result":
                long cpuEnd = processCpuNanos();
                if (cpuStart >= 0 && cpuEnd >= cpuStart && msg instanceof ObjectNode result) {
                    result.put("cpu_ns", cpuEnd - cpuStart);
                }
                status.update(msg);
                done.complete(msg.path("ok").asBoolean(false) ? "" : "trial failed: " + msg.path("error").asText("no reason given"));
                break;
            case "error":
                done.complete("worker error: " + msg.path("error").asText());
                break;
            default:
                break; // hello and future ops carry nothing for the status
        }
    }

    @Override
    public void stop(Platform platform) throws Exception {
        if (!running.compareAndSet(true, false)) {
            throw new IllegalStateException("prodlab task " + id + " is not running");
        }
        InProcessWorker w = worker;
        if (w != null) {
            w.close();
        }
    }
}
