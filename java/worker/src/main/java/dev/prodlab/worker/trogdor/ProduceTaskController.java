package dev.prodlab.worker.trogdor;

import java.util.Set;
import org.apache.kafka.trogdor.common.Topology;
import org.apache.kafka.trogdor.task.TaskController;

/** Tells the coordinator which agents run a {@link ProduceTaskSpec}: the spec's nodes. */
final class ProduceTaskController implements TaskController {
    private final ProduceTaskSpec spec;

    ProduceTaskController(ProduceTaskSpec spec) {
        this.spec = spec;
    }

    @Override
    public Set<String> targetNodes(Topology topology) {
        return spec.targetNodes();
    }
}
