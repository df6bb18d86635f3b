package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Collectors;

/**
 * The deliveries a worker holds, and the slots they hold: one slot per delivery, {@code concurrency} slots and those
 * opened for deliveries leased ahead (below). The fetcher takes free slots before it leases (this is the
 * backpressure); a delivery gives its slot back when it ends ({@link #end}), or when its effect committed and it
 * is handed over for acknowledgement. A handed-over delivery stays held (its lease is extended)
 * until its acknowledgement went ({@link #forget}). Beyond the {@code concurrency} slots, the fetcher may open slots
 * for deliveries leased ahead ({@link #leaseAhead}): the drainers, which never run more than {@code concurrency} jobs
 * (rounded up to their whole batches), take those when they end a batch. A suspect runs alone by taking every other
 * slot ({@link #takeOtherSlots}): the slots are fair, and the fetcher takes even a free one only when nobody waits
 * for slots, so once the suspect waits, the fetcher leases nothing new until the suspect has run. The rules of that
 * protocol are {@link Suspects}'; these are its slots.
 *
 * <p>One lock style across the worker: monitors ({@code synchronized}) guard short sections that never block inside,
 * a thread that waits for another parks ({@link LockSupport}, like the acknowledgement sender), and single counters
 * and flags are atomics. A virtual thread so never waits inside a monitor, which would pin it on Java 21 to 23.
 */
final class InFlight {
    private final int concurrency;
    private final Slots slots;
    /** Slots open beyond {@code concurrency}, for deliveries leased ahead (guarded by this). */
    private int ahead;
    /**
     * A suspect took, or waits for, every other slot: the slots leased ahead stay as they are (written under this;
     * volatile for {@link #awaitSuspectIsolating}).
     */
    private volatile int isolatedOthers = -1;
    /** The fetcher while it waits for the suspect to move ({@link #awaitSuspectIsolating}); null otherwise. */
    private volatile Thread awaitingSuspect;
    private final Map<Key, HeldDelivery> held = new ConcurrentHashMap<>();
    private final AtomicInteger suspects = new AtomicInteger();

    InFlight(int concurrency) {
        this.concurrency = concurrency;
        this.slots = new Slots(concurrency);
    }

    /**
     * Opens or closes slots beyond {@code concurrency} so that {@code depth} deliveries may be leased ahead. A closed
     * slot that is in use closes when its delivery gives it back. Changes nothing while a suspect isolates itself.
     */
    synchronized void leaseAhead(int depth) {
        if (isolatedOthers >= 0 || depth == ahead) {
            return;
        }
        if (depth > ahead) {
            slots.release(depth - ahead);
        } else {
            slots.close(ahead - depth);
        }
        ahead = depth;
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
        if (!slots.tryAcquireInTurn()) {
            beforeWaiting.run();
            slots.acquire();
        }
        int taken = 1;
        while (slots.tryAcquireInTurn()) {
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
        int others;
        int taken = 0;
        synchronized (this) {
            others = concurrency + ahead - 1;
            isolatedOthers = others;
            // the free ones at once, before the fetcher hears that it may take slots again (awaitSuspectIsolating)
            while (taken < others && slots.tryAcquire()) {
                taken++;
            }
        }
        signalSuspectMoved();
        if (taken < others) { // a fair acquire of none would still queue behind the fetcher, which waits for ours
            try {
                slots.acquire(others - taken);
            } catch (InterruptedException e) {
                synchronized (this) {
                    slots.release(taken);
                    isolatedOthers = -1;
                }
                throw e;
            }
        }
    }

    /**
     * Waits, at most {@code max}, until the suspect this worker holds has begun to take its other slots, or is held
     * no more (it did not run, or it ran). Called by the fetcher after it took a suspect in: leasing at once, it would
     * take the slots the suspect is about to wait for, and keep it waiting for a whole lease, a blocking read on an
     * idle queue. The bound keeps the fetcher going should the suspect be held up before it runs.
     */
    void awaitSuspectIsolating(Duration max) throws InterruptedException {
        long until = System.nanoTime() + max.toNanos();
        awaitingSuspect = Thread.currentThread();
        try {
            // set before the check: a move after it unparks this thread, and a park after the unpark returns at once
            while (suspects.get() > 0 && isolatedOthers < 0) {
                long left = until - System.nanoTime();
                if (left <= 0) {
                    return;
                }
                LockSupport.parkNanos(this, left);
                if (Thread.interrupted()) {
                    throw new InterruptedException("stopped while waiting for the suspect");
                }
            }
        } finally {
            awaitingSuspect = null;
        }
    }

    /** Wakes the fetcher in {@link #awaitSuspectIsolating}: the suspect began to take its other slots, or is gone. */
    private void signalSuspectMoved() {
        Thread waiting = awaitingSuspect;
        if (waiting != null) {
            LockSupport.unpark(waiting);
        }
    }

    synchronized void freeOtherSlots() {
        slots.release(isolatedOthers);
        isolatedOthers = -1;
    }

    /** Gives back slots: taken for deliveries that did not come, or of deliveries that ended ({@link #end}). */
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
            freeSlots(1);
            return Optional.empty();
        }
        if (fresh.isSuspect()) {
            suspects.incrementAndGet();
        }
        return Optional.of(fresh);
    }

    /**
     * Gives back the slots of deliveries that ended, all at once, so that the fetcher leases (and batches) them
     * together, not one by one: the one place where an ending frees a slot. A delivery handed over stays held
     * until its acknowledgement went ({@link #forget}); the others are held no more.
     */
    void end(Map<HeldDelivery, Ending> endings) {
        List<HeldDelivery> done = new ArrayList<>(endings.size());
        endings.forEach((delivery, ending) -> {
            boolean staysHeld = switch (ending) {
                case HANDED_OVER -> true;
                case MOVED, LEFT_PENDING, NOT_OURS -> false;
            };
            if (!staysHeld) {
                done.add(delivery);
            }
        });
        forget(done);
        freeSlots(endings.size());
    }

    /** Stops holding deliveries whose slots were freed already: their acknowledgement went. */
    void forget(Collection<HeldDelivery> done) {
        done.forEach(delivery -> {
            if (held.remove(Key.of(delivery.delivery()), delivery) && delivery.isSuspect()) {
                suspects.decrementAndGet();
                signalSuspectMoved();
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

    /** A fair semaphore whose permits can be taken away at once, in use or not. */
    private static final class Slots extends Semaphore {
        Slots(int permits) {
            super(permits, true);
        }

        /**
         * A free slot, unless a thread waits for slots already: a plain {@code tryAcquire()} would take it past a
         * waiting suspect, and the fetcher, which takes every free slot each turn, would then keep the suspect waiting
         * for turn after turn (a second a turn on an idle queue).
         */
        boolean tryAcquireInTurn() throws InterruptedException {
            return tryAcquire(0, TimeUnit.SECONDS);
        }

        /** Takes {@code count} permits away: those in use are gone once they are given back. */
        void close(int count) {
            reducePermits(count);
        }
    }

    private record Key(QueueName queue, DeliveryId id) {
        static Key of(Delivery delivery) {
            return new Key(delivery.queue(), delivery.id());
        }
    }
}
