package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.domain.QueueName;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * The deliveries a worker holds, and the slots they hold: one slot per running delivery, {@code concurrency} slots in
 * all. The fetcher takes free slots before it leases (this is the backpressure: a worker never runs more than
 * {@code concurrency} jobs); a delivery gives its slot back when it is released, or when its effect committed and it
 * is handed over for acknowledgement ({@link #freeSlots}). A handed-over delivery stays held (its lease is extended)
 * until its acknowledgement went ({@link #forget}). A suspect runs alone by taking
 * every other slot ({@link #takeOtherSlots}): the slots are fair, so once it waits for them, the fetcher leases nothing
 * new until the suspect has run.
 */
final class InFlight {
    private final int concurrency;
    private final Semaphore slots;
    private final Map<Key, HeldDelivery> held = new ConcurrentHashMap<>();
    private final AtomicInteger suspects = new AtomicInteger();

    InFlight(int concurrency) {
        this.concurrency = concurrency;
        this.slots = new Semaphore(concurrency, true);
    }

    /** Waits for one free slot, then takes every other free one: the most this worker may lease now. */
    int takeFreeSlots() throws InterruptedException {
        return takeFreeSlots(() -> { });
    }

    /**
     * {@link #takeFreeSlots()}, running {@code beforeWaiting} first when it has to wait.
     *
     * @param beforeWaiting runs first when no slot is free now
     */
    int takeFreeSlots(Runnable beforeWaiting) throws InterruptedException {
        if (!slots.tryAcquire()) {
            beforeWaiting.run();
            slots.acquire();
        }
        int taken = 1;
        while (taken < concurrency && slots.tryAcquire()) {
            taken++;
        }
        return taken;
    }

    void takeSlot() throws InterruptedException {
        slots.acquire();
    }

    /**
     * Waits until every slot but the caller's own is free, and takes them: the worker's other jobs have finished and
     * no new ones start until {@link #freeOtherSlots}.
     */
    void takeOtherSlots() throws InterruptedException {
        if (concurrency > 1) { // a fair acquire of none would still queue behind the fetcher, which waits for ours
            slots.acquire(concurrency - 1);
        }
    }

    void freeOtherSlots() {
        slots.release(concurrency - 1);
    }

    /** Gives back slots taken for deliveries that did not come. */
    void freeSlots(int count) {
        slots.release(count);
    }

    /**
     * Holds a delivery in a slot taken for it. A delivery held already (this worker reclaimed its own running job)
     * is handled already: its second slot is given back.
     */
    Optional<HeldDelivery> hold(Delivery delivery) {
        HeldDelivery fresh = new HeldDelivery(delivery);
        if (held.putIfAbsent(Key.of(delivery), fresh) != null) {
            slots.release();
            return Optional.empty();
        }
        if (fresh.isSuspect()) {
            suspects.incrementAndGet();
        }
        return Optional.of(fresh);
    }

    /** Frees the slots all at once, so that the fetcher leases (and batches) them together, not one by one. */
    void release(Collection<HeldDelivery> done) {
        forget(done);
        slots.release(done.size());
    }

    /** Stops holding deliveries whose slots were freed already: their acknowledgement went. */
    void forget(Collection<HeldDelivery> done) {
        done.forEach(delivery -> {
            if (held.remove(Key.of(delivery.delivery()), delivery) && delivery.isSuspect()) {
                suspects.decrementAndGet();
            }
        });
    }

    /** Suspects held now: at most one, since a worker takes in a suspect only when it holds none. */
    int suspects() {
        return suspects.get();
    }

    boolean holdsSuspect() {
        return suspects.get() > 0;
    }

    Optional<HeldDelivery> find(QueueName queue, DeliveryId id) {
        return Optional.ofNullable(held.get(new Key(queue, id)));
    }

    Map<QueueName, List<DeliveryId>> idsByQueue() {
        return held.keySet().stream()
                .collect(Collectors.groupingBy(Key::queue, Collectors.mapping(Key::id, Collectors.toList())));
    }

    List<HeldDelivery> all() {
        return List.copyOf(held.values());
    }

    /** Abandons every held delivery not finishing yet. @return how many were abandoned */
    int abandonAll() {
        return (int) all().stream().filter(HeldDelivery::abandon).count();
    }

    int size() {
        return held.size();
    }

    void clear() {
        held.clear();
        suspects.set(0);
    }

    private record Key(QueueName queue, DeliveryId id) {
        static Key of(Delivery delivery) {
            return new Key(delivery.queue(), delivery.id());
        }
    }
}
