package dev.prodlab.worker.trogdor;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.trogdor.common.Platform;
import org.apache.kafka.trogdor.common.Topology;
import org.apache.kafka.trogdor.task.TaskController;
import org.apache.kafka.trogdor.task.TaskSpec;
import org.apache.kafka.trogdor.task.TaskWorker;

/**
 * A Trogdor task that asks every agent of the fleet what it is, before
 * prodlab creates any trial task: the coordinator names no nodes through its
 * REST API, so each agent publishes its own name, the agent names of the
 * fleet's topology, its kafka-clients release and the version of prodlab's
 * task API ({@link ProbeTaskWorker#TASK_API}), then finishes at once.
 *
 * <p>JSON form: {"class":"dev.prodlab.worker.trogdor.ProbeTaskSpec","startMs":0,"durationMs":30000}
 */
public final class ProbeTaskSpec extends TaskSpec {
    /** Built by Jackson from the task's JSON spec. */
    @JsonCreator
    public ProbeTaskSpec(@JsonProperty("startMs") long startMs, @JsonProperty("durationMs") long durationMs) {
        super(startMs, durationMs);
    }

    @Override
    public TaskController newController(String id) {
        return ProbeTaskSpec::agents;
    }

    /**
     * Every agent of the topology: the nodes with a positive agent port (a
     * coordinator's node may say "trogdor.agent.port": 0, so that the
     * coordinator does not poll it as an agent).
     */
    static Set<String> agents(Topology topology) {
        Set<String> out = new TreeSet<>();
        topology.nodes().forEach((name, node) -> {
            String port = node.getConfig(Platform.Config.TROGDOR_AGENT_PORT);
            if (port != null && Integer.parseInt(port.trim()) > 0) {
                out.add(name);
            }
        });
        return out;
    }

    @Override
    public TaskWorker newTaskWorker(String id) {
        return new ProbeTaskWorker();
    }
}
