package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Consumer;

/**
 * Hands leased deliveries, each in a slot taken for it, to the job threads: one task per delivery, or per batch of
 * up to {@code batchCommit} deliveries that commit in one ledger transaction. A suspect goes alone, in a batch of its
 * own: it is to run alone.
 */
final class Dispatcher {
    private final InFlight inFlight;
    private final int batchCommit;
    private final Executor jobs;
    private final Consumer<List<HeldDelivery>> process;

    Dispatcher(InFlight inFlight, int batchCommit, Executor jobs, Consumer<List<HeldDelivery>> process) {
        this.inFlight = inFlight;
        this.batchCommit = batchCommit;
        this.jobs = jobs;
        this.process = process;
    }

    void dispatch(List<Delivery> deliveries) {
        List<HeldDelivery> batch = new ArrayList<>(Math.min(deliveries.size(), batchCommit));
        for (Delivery delivery : deliveries) {
            Optional<HeldDelivery> held = inFlight.hold(delivery);
            if (held.isPresent() && held.get().isSuspect()) {
                submit(List.of(held.get()));
                continue;
            }
            held.ifPresent(batch::add);
            if (batch.size() == batchCommit) {
                submit(batch);
                batch = new ArrayList<>(batchCommit);
            }
        }
        if (!batch.isEmpty()) {
            submit(batch);
        }
    }

    private void submit(List<HeldDelivery> batch) {
        try {
            jobs.execute(() -> process.accept(batch));
        } catch (RejectedExecutionException e) {
            inFlight.release(batch); // stopping: the entries stay pending for the next consumer
        }
    }
}
