package dev.prodlab.agent;

import java.util.ArrayDeque;
import java.util.Deque;

/** Has the shape of ProducerStateEntry.addBatchMetadata (a deque trimmed at 5), for running a rewrite. */
public class Fixture {
    private final Deque<Object> batches = new ArrayDeque<>();

    public void add(Object b) {
        if (batches.size() == 5) {
            batches.removeFirst();
        }
        batches.add(b);
    }

    public int size() {
        return batches.size();
    }
}
