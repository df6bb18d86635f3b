package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.Lease;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands leased deliveries, each in a slot taken for it, to the job threads, once it had the cancelled ones marked
 * (as their lease told; for deliveries that came otherwise, one read for all that came together, and when that fails,
 * none runs: they stay pending). The deliveries wait in a ready queue that up to {@code transactions} drainers empty
 * at once, each on a job thread of its own (and so on a connection of its own): a drainer takes whatever is ready,
 * up to {@code jobsPerTransaction} (1: one job at a time), runs it as one batch, and takes the next; it ends when
 * nothing is ready. A batch is never waited for to fill: under a light load batches are small and start at once, under
 * a heavy one they grow to {@code jobsPerTransaction}, and several commit side by side.
 *
 * <p>Drainers start one after the other: a dispatch starts one, and a drainer that leaves deliveries ready when it
 * takes its batch starts the next, unless one is starting already. Short jobs are so run by the few drainers awake
 * (waking a thread costs more than a short job, and one wake-up per job was most of a noop job's cost), while long
 * ones still get a drainer each, as fast as threads wake. A suspect goes alone, in a task of its own: it is to run
 * alone. How long each batch took tells how far ahead of its jobs the worker leases ({@link LeaseAhead}): deliveries
 * leased ahead wait in the ready queue, for the next drainer that ends a batch.
 */
final class Dispatcher {
    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private final InFlight inFlight;
    private final CancelMarks marks;
    private final int jobsPerTransaction;
    private final int transactions;
    private final Executor jobs;
    private final Consumer<List<HeldDelivery>> process;
    private final LeaseAhead ahead;
    private final Queue<HeldDelivery> ready = new ConcurrentLinkedQueue<>();
    private final AtomicInteger drainers = new AtomicInteger();
    /** A drainer was started and has not begun yet: it will take what is ready, so no other is started meanwhile. */
    private final AtomicBoolean starting = new AtomicBoolean();

    /**
     * @param jobsPerTransaction the most jobs a drainer takes as one batch ({@link WorkerSettings#jobsPerTransaction})
     * @param transactions       the most batches that run at once (with {@code jobsPerTransaction} 1, the jobs)
     * @param ahead              told how long each batch took
     */
    Dispatcher(InFlight inFlight, CancelMarks marks, int jobsPerTransaction, int transactions, Executor jobs,
               Consumer<List<HeldDelivery>> process, LeaseAhead ahead) {
        if (transactions < 1) {
            throw new IllegalArgumentException("batches at once must be positive, got " + transactions);
        }
        this.inFlight = inFlight;
        this.marks = marks;
        this.jobsPerTransaction = jobsPerTransaction;
        this.transactions = transactions;
        this.jobs = jobs;
        this.process = process;
        this.ahead = ahead;
    }

    /** Dispatches what a lease brought: it told which of its jobs are cancelled. */
    void dispatch(Lease lease) {
        List<HeldDelivery> held = hold(lease.deliveries());
        CancelMarks.mark(held, lease.cancelled());
        hand(held);
    }

    /** Dispatches deliveries no lease told the cancels of (reclaimed, resumed, inline): reads them first. */
    void dispatch(List<Delivery> deliveries) {
        List<HeldDelivery> held = hold(deliveries);
        if (held.isEmpty()) {
            return;
        }
        try {
            marks.markCancelled(held);
        } catch (RuntimeException e) {
            // not knowing which are cancelled, run none: they stay pending and come back after the lease
            LOG.warn("could not read the cancels, left pending for redelivery count={}: {}", held.size(),
                    e.toString());
            inFlight.end(Ending.LEFT_PENDING.ofAll(held));
            return;
        }
        hand(held);
    }

    private List<HeldDelivery> hold(List<Delivery> deliveries) {
        List<HeldDelivery> held = new ArrayList<>(deliveries.size());
        for (Delivery delivery : deliveries) {
            inFlight.hold(delivery).ifPresent(held::add);
        }
        return held;
    }

    private void hand(List<HeldDelivery> held) {
        for (HeldDelivery one : held) {
            if (one.isSuspect()) {
                submit(List.of(one), () -> process.accept(List.of(one)));
            } else {
                ready.add(one);
            }
        }
        startDrainer();
    }

    /**
     * Starts a drainer while deliveries are ready, unless one is starting already or {@code transactions} run (those
     * take what is ready when their batch ends).
     */
    private void startDrainer() {
        if (ready.isEmpty() || !starting.compareAndSet(false, true)) {
            return;
        }
        if (joinDrainers()) {
            submit(List.of(), this::drain);
        } else {
            starting.set(false);
        }
    }

    /** Counts one more drainer unless {@code transactions} run already. @return whether it was counted */
    private boolean joinDrainers() {
        while (true) {
            int running = drainers.get();
            if (running >= transactions) {
                return false;
            }
            if (drainers.compareAndSet(running, running + 1)) {
                return true;
            }
        }
    }

    private void drain() {
        starting.set(false);
        boolean counted = true;
        try {
            while (counted) {
                List<HeldDelivery> batch = takeReady();
                if (!batch.isEmpty()) {
                    startDrainer(); // what is left gets the next drainer while this one runs its batch
                    long started = System.nanoTime();
                    process.accept(batch);
                    ahead.batchTook(System.nanoTime() - started);
                    continue;
                }
                drainers.decrementAndGet();
                // a dispatch that came after the last take may have seen this drainer still counted and started none
                counted = !ready.isEmpty() && joinDrainers();
            }
        } finally {
            if (counted) { // the batch's processing threw: the next dispatch starts a drainer for what is left
                drainers.decrementAndGet();
            }
        }
    }

    private List<HeldDelivery> takeReady() {
        List<HeldDelivery> batch = new ArrayList<>(Math.min(jobsPerTransaction, 64));
        HeldDelivery next;
        while (batch.size() < jobsPerTransaction && (next = ready.poll()) != null) {
            batch.add(next);
        }
        return batch;
    }

    /**
     * Runs the task on a job thread; when stopping, releases {@code deliveries} or, for a drainer none other is left
     * to run, what is ready.
     */
    private void submit(List<HeldDelivery> deliveries, Runnable task) {
        try {
            jobs.execute(task);
        } catch (RejectedExecutionException e) {
            // stopping: the entries stay pending for the next consumer
            if (deliveries.isEmpty()) {
                starting.set(false);
                // a drainer still running takes what is ready within the grace period; the last one counted does not
                if (drainers.decrementAndGet() == 0) {
                    inFlight.end(Ending.LEFT_PENDING.ofAll(takeAll()));
                }
            } else {
                inFlight.end(Ending.LEFT_PENDING.ofAll(deliveries));
            }
        }
    }

    private List<HeldDelivery> takeAll() {
        List<HeldDelivery> all = new ArrayList<>();
        HeldDelivery next;
        while ((next = ready.poll()) != null) {
            all.add(next);
        }
        return all;
    }
}
