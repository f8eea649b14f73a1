package dev.prodlab.worker.trogdor;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
 * "run" holds the fields of the worker's {"op":"run"} request (docs/worker-protocol.md);
 * every node runs the same request, with its node name appended to the audit
 * tag (tag/NODE) so that each node's records are audited on their own.
 * "runs", when given, holds one whole request per node instead (its share of
 * the records and rate, its own seed, producers and audit tag, as prodlab
 * splits a trial over the nodes); a node without an entry there runs "run".
 */
public final class ProduceTaskSpec extends TaskSpec {
    private final List<String> nodes;
    private final ObjectNode run;
    private final Map<String, ObjectNode> runs;

    /** Built by Jackson from the task's JSON spec. */
    @JsonCreator
    public ProduceTaskSpec(@JsonProperty("startMs") long startMs,
            @JsonProperty("durationMs") long durationMs,
            @JsonProperty("nodes") List<String> nodes,
            @JsonProperty("run") JsonNode run,
            @JsonProperty("runs") Map<String, JsonNode> runs) {
        super(startMs, durationMs);
        this.nodes = nodes == null ? List.of() : List.copyOf(nodes);
        this.run = object(run);
        Map<String, ObjectNode> own = new TreeMap<>();
        if (runs != null) {
            runs.forEach((node, r) -> own.put(node, object(r)));
        }
        this.runs = own;
    }

    private static ObjectNode object(JsonNode n) {
        return n != null && n.isObject() ? (ObjectNode) n.deepCopy() : JsonNodeFactory.instance.objectNode();
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

    /** The per-node run requests (empty when every node runs {@link #run()}). */
    @JsonProperty
    public Map<String, JsonNode> runs() {
        Map<String, JsonNode> out = new TreeMap<>();
        runs.forEach((node, r) -> out.put(node, r.deepCopy()));
        return out;
    }

    /** The run request of node: its own from "runs" (true), or the shared "run" (false). */
    boolean hasOwnRun(String node) {
        return runs.containsKey(node);
    }

    /** The run request node runs. */
    JsonNode runOf(String node) {
        ObjectNode own = runs.get(node);
        return own != null ? own.deepCopy() : run.deepCopy();
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
