package dev.prodlab.worker.trogdor;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.trogdor.task.TaskController;
import org.apache.kafka.trogdor.task.TaskSpec;
import org.apache.kafka.trogdor.task.TaskWorker;

/**
 * A Trogdor task that runs one prodlab trial on each of its target nodes.
 *
 * <p>JSON form (the "class" is this class's name):
 * <pre>
 * {"class":"dev.prodlab.worker.trogdor.ProduceTaskSpec","startMs":0,"durationMs":60000,
 *  "nodes":["agent-1","agent-2"],
 *  "run":{"bootstrap":"127.0.0.1:9092","topic":"t","records":10000,"record_size":100,...}}
 * </pre>
 * "run" holds the fields of the worker's {"op":"run"} request (PROTOCOL.md);
 * every node runs the same request, with its node name appended to the audit
 * tag (tag/NODE) so that each node's records are audited on their own.
 */
public final class ProduceTaskSpec extends TaskSpec {
    private final List<String> nodes;
    private final ObjectNode run;

    /** Built by Jackson from the task's JSON spec. */
    @JsonCreator
    public ProduceTaskSpec(@JsonProperty("startMs") long startMs,
            @JsonProperty("durationMs") long durationMs,
            @JsonProperty("nodes") List<String> nodes,
            @JsonProperty("run") JsonNode run) {
        super(startMs, durationMs);
        this.nodes = nodes == null ? List.of() : List.copyOf(nodes);
        this.run = run != null && run.isObject() ? (ObjectNode) run.deepCopy() : JsonNodeFactory.instance.objectNode();
    }

    /** The nodes the trial runs on. */
    @JsonProperty
    public List<String> nodes() {
        return nodes;
    }

    /** The worker run request every node runs (without op and id). */
    @JsonProperty
    public JsonNode run() {
        return run.deepCopy();
    }

    /** The spec's nodes, as a set. */
    Set<String> targetNodes() {
        return new TreeSet<>(nodes);
    }

    @Override
    public TaskController newController(String id) {
        return new ProduceTaskController(this);
    }

    @Override
    public TaskWorker newTaskWorker(String id) {
        return new ProduceTaskWorker(id, this);
    }
}
