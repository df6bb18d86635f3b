package dev.baton.application.service;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.StreamTransport;
import dev.baton.domain.QueueName;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Acknowledges for many job threads at once, like a group commit: while one thread sends an acknowledgement, the
 * others that finish add their ids to the next batch, and one of them sends that batch, one call per queue. A caller
 * returns once its own ids were acknowledged (or throws the transport's failure), so the worker still acknowledges
 * every job after its commit and before it counts the job as completed.
 */
final class Acknowledgements {
    private final StreamTransport transport;
    private final Object lock = new Object();
    private Batch collecting = new Batch();
    private boolean sending;

    Acknowledgements(StreamTransport transport) {
        this.transport = transport;
    }

    /**
     * Acknowledges {@code ids} per queue, together with whatever other threads acknowledge meanwhile. A caller
     * interrupted while it waits leaves its ids to the next sender (or, if none comes, pending for redelivery).
     */
    void acknowledge(Map<QueueName, List<DeliveryId>> ids) throws InterruptedException {
        if (ids.isEmpty()) {
            return;
        }
        Batch mine;
        boolean send;
        synchronized (lock) {
            mine = collecting;
            ids.forEach((queue, list) -> mine.ids.computeIfAbsent(queue, q -> new ArrayList<>()).addAll(list));
            while (!mine.done && sending) {
                lock.wait();
            }
            // not done and nobody sending, so nobody took our batch yet: we send it, others collect the next one
            send = !mine.done;
            if (send) {
                sending = true;
                collecting = new Batch();
            }
        }
        if (send) {
            send(mine);
        }
        if (mine.failure != null) {
            throw mine.failure;
        }
    }

    private void send(Batch batch) {
        RuntimeException failure = null;
        try {
            batch.ids.forEach(transport::acknowledge);
        } catch (RuntimeException e) {
            failure = e;
        }
        synchronized (lock) {
            batch.failure = failure;
            batch.done = true;
            sending = false;
            lock.notifyAll();
        }
    }

    private static final class Batch {
        final Map<QueueName, List<DeliveryId>> ids = new LinkedHashMap<>();
        boolean done;
        RuntimeException failure;
    }
}
