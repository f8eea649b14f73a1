package dev.prodlab.worker.trogdor;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.apache.kafka.common.internals.KafkaFutureImpl;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.trogdor.common.Platform;
import org.apache.kafka.trogdor.task.TaskWorker;
import org.apache.kafka.trogdor.task.WorkerStatusTracker;

/** Publishes what this agent is ({@link ProbeTaskSpec}) and finishes. */
final class ProbeTaskWorker implements TaskWorker {
    /**
     * The version of the task API prodlab's Go side speaks to this jar's
     * tasks: raised whenever ProduceTaskSpec or its status changes in a way
     * the other side must know.
     */
    static final int TASK_API = 1;

    @Override
    public void start(Platform platform, WorkerStatusTracker status, KafkaFutureImpl<String> done) {
        ObjectNode s = JsonNodeFactory.instance.objectNode();
        s.put("node", platform.curNode().name());
        s.put("hostname", platform.curNode().hostname());
        ProbeTaskSpec.agents(platform.topology()).forEach(s.putArray("agents")::add);
        s.put("kafka_clients", AppInfoParser.getVersion());
        s.put("java", System.getProperty("java.version"));
        s.put("task_api", TASK_API);
        status.update(s);
        done.complete("");
    }

    @Override
    public void stop(Platform platform) {
        // Nothing runs after start.
    }
}
