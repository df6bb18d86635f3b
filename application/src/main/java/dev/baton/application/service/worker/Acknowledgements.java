package dev.baton.application.service.worker;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobLeases;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acknowledges finished jobs on a thread of its own, like a group commit: job threads hand over their committed
 * deliveries and go on to the next job; the sender acknowledges whatever has gathered, one call per queue, then tells
 * the {@link Listener} how it went. A job thread never waits for Redis, and a thousand jobs finishing together cost
 * one round trip. The listener hears of a delivery only after its acknowledgement succeeded (or failed).
 */
final class Acknowledgements<T extends Acknowledgements.Finished> {
    /** At most this many ids per call, so that one call never grows without bound behind a slow Redis. */
    static final int MAX_BATCH = 1_000;
    private static final Logger LOG = LoggerFactory.getLogger(Acknowledgements.class);

    private final JobLeases leases;
    private final Listener<T> listener;
    private final Queue<T> waiting = new ConcurrentLinkedQueue<>();
    /** Null when the caller's thread sends ({@link #onCallingThread}). */
    private final Thread sender;
    private volatile boolean closing;

    /** A delivery whose effect committed: it is acknowledged next. */
    interface Finished {
        QueueName queue();

        DeliveryId id();
    }

    /** Hears, on the sender's thread, how each batch went. Must not block for long: the next batch waits. */
    interface Listener<T> {
        void acknowledged(List<T> finished);

        void notAcknowledged(List<T> finished, RuntimeException failure);
    }

    Acknowledgements(JobLeases leases, Listener<T> listener, ThreadFactory threads) {
        this.leases = leases;
        this.listener = listener;
        this.sender = threads.newThread(this::send);
        sender.start();
    }

    private Acknowledgements(JobLeases leases, Listener<T> listener) {
        this.leases = leases;
        this.listener = listener;
        this.sender = null;
    }

    /**
     * Acknowledgements sent by the caller of {@link #acknowledge}, before it returns, in the same batches: for the
     * {@link InlineWorker}, whose one thread must find every finished delivery acknowledged when a pass ends.
     */
    static <T extends Finished> Acknowledgements<T> onCallingThread(JobLeases leases, Listener<T> listener) {
        return new Acknowledgements<>(leases, listener);
    }

    void acknowledge(Collection<T> finished) {
        if (finished.isEmpty()) {
            return;
        }
        if (closing) {
            throw new IllegalStateException("acknowledgements are closed");
        }
        waiting.addAll(finished);
        if (sender == null) {
            sendWaiting();
        } else {
            LockSupport.unpark(sender);
        }
    }

    /** Sends everything handed over before this call, then stops the sender; waits at most {@code wait}. */
    void close(Duration wait) throws InterruptedException {
        closing = true;
        if (sender != null) {
            LockSupport.unpark(sender);
            sender.join(Math.max(1, wait.toMillis()));
        }
    }

    private void send() {
        while (true) {
            sendWaiting();
            if (closing && waiting.isEmpty()) {
                return;
            }
            if (waiting.isEmpty()) {
                LockSupport.park(this); // an acknowledge() or close() after the check leaves a permit: no lost wake-up
            }
        }
    }

    /** Sends whatever has gathered, {@link #MAX_BATCH} at most per call, until nothing is waiting. */
    private void sendWaiting() {
        List<T> batch = new ArrayList<>();
        for (T next = waiting.poll(); next != null; next = waiting.poll()) {
            batch.add(next);
            if (batch.size() == MAX_BATCH) {
                sendBatch(batch);
                batch.clear();
            }
        }
        if (!batch.isEmpty()) {
            sendBatch(batch);
        }
    }

    private void sendBatch(List<T> batch) {
        Map<QueueName, List<T>> byQueue = new LinkedHashMap<>();
        batch.forEach(finished -> byQueue.computeIfAbsent(finished.queue(), queue -> new ArrayList<>()).add(finished));
        byQueue.forEach((queue, finished) -> {
            RuntimeException failure = null;
            try {
                leases.acknowledge(queue, finished.stream().map(Finished::id).toList());
            } catch (RuntimeException e) {
                failure = e;
            }
            try {
                if (failure == null) {
                    listener.acknowledged(finished);
                } else {
                    listener.notAcknowledged(finished, failure);
                }
            } catch (RuntimeException e) {
                // the sender must outlive a faulty listener, or every later job would stay unacknowledged
                LOG.warn("acknowledgement listener failed queue={} count={}", queue, finished.size(), e);
            }
        });
    }
}
