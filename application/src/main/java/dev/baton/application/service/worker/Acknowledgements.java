package dev.baton.application.service.worker;

import dev.baton.application.port.out.AcknowledgedLease;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.Lease;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 *
 * <p>While the fetcher is about to lease again without waiting (its queue has work, {@link #holdForLease}), the
 * sender leaves what gathers to it: the acknowledgements go in front of its next lease ({@link #leaseAfter}), in the
 * same round trip. Before the fetcher may wait (for an empty queue, a slot, a paused queue, a retry) it gives them
 * back to the sender ({@link #sendDirectly}), so none waits on an idle fetcher.
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
    /** The fetcher takes what gathers in front of its next lease; the sender leaves it alone meanwhile. */
    private volatile boolean heldForLease;

    /** A delivery whose effect committed: it is acknowledged next. */
    interface Finished {
        QueueName queue();

        DeliveryId id();
    }

    /** Leases with acknowledgements in front: {@link JobLeases#acknowledgeAndLease} for one queue and consumer. */
    interface LeaseCall {
        AcknowledgedLease leaseAfter(List<DeliveryId> acknowledged);
    }

    /**
     * Hears, on the sender's thread (or the fetcher's, for what went in front of a lease), how each batch went. Must
     * not block for long: the next batch waits.
     */
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
        } else if (!heldForLease) { // a fetcher about to lease takes them; sendDirectly() wakes the sender after
            LockSupport.unpark(sender);
        }
    }

    /** From now on what gathers waits for the fetcher's next lease ({@link #leaseAfter}). */
    void holdForLease() {
        heldForLease = true;
    }

    /** The fetcher may wait: the sender sends what gathered, and what comes, itself. */
    void sendDirectly() {
        heldForLease = false;
        if (sender != null) {
            LockSupport.unpark(sender);
        }
    }

    /**
     * Leases from {@code queue} with what gathered of it acknowledged in front, in one call, and tells the listener
     * how that acknowledgement went; what gathered of other queues is sent first, a call per queue. A lease that fails
     * leaves its acknowledgements unconfirmed: the listener hears they failed (they stay pending, or were
     * acknowledged: either way a redelivery finds the completion).
     */
    Lease leaseAfter(QueueName queue, LeaseCall lease) {
        Map<QueueName, List<T>> byQueue = byQueue(poll(MAX_BATCH));
        List<T> riding = Objects.requireNonNullElse(byQueue.remove(queue), List.of());
        byQueue.forEach(this::send);
        AcknowledgedLease leased;
        try {
            leased = lease.leaseAfter(riding.stream().map(Finished::id).toList());
        } catch (RuntimeException e) {
            tell(queue, riding, e);
            throw e;
        }
        tell(queue, riding, leased.acknowledgementFailure().orElse(null));
        return leased.lease();
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
            if (!heldForLease || closing) {
                sendWaiting();
            }
            if (closing && waiting.isEmpty()) {
                return;
            }
            if (waiting.isEmpty() || (heldForLease && !closing)) {
                // an acknowledge(), sendDirectly() or close() after the check leaves a permit: no lost wake-up
                LockSupport.park(this);
            }
        }
    }

    /** Sends whatever has gathered, {@link #MAX_BATCH} at most per call, until nothing is waiting. */
    private void sendWaiting() {
        for (List<T> batch = poll(MAX_BATCH); !batch.isEmpty(); batch = poll(MAX_BATCH)) {
            byQueue(batch).forEach(this::send);
        }
    }

    private List<T> poll(int max) {
        List<T> batch = new ArrayList<>();
        for (T next = waiting.poll(); next != null; next = batch.size() < max ? waiting.poll() : null) {
            batch.add(next);
        }
        return batch;
    }

    private Map<QueueName, List<T>> byQueue(List<T> batch) {
        Map<QueueName, List<T>> byQueue = new LinkedHashMap<>();
        batch.forEach(finished -> byQueue.computeIfAbsent(finished.queue(), queue -> new ArrayList<>()).add(finished));
        return byQueue;
    }

    private void send(QueueName queue, List<T> finished) {
        RuntimeException failure = null;
        try {
            leases.acknowledge(queue, finished.stream().map(Finished::id).toList());
        } catch (RuntimeException e) {
            failure = e;
        }
        tell(queue, finished, failure);
    }

    private void tell(QueueName queue, List<T> finished, RuntimeException failure) {
        if (finished.isEmpty()) {
            return;
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
    }
}
