package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobObserver;
import dev.baton.domain.ConsumerName;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a suspect alone in its worker. A suspect was delivered before to a worker that went silent: it may be what
 * killed that worker, or it merely shared the worker with what did. Alone, only it can be blamed if the worker dies
 * again: it waits until the worker's other jobs finished (no new ones start meanwhile), records in the transport
 * that it runs isolated, runs, and gives the slots back at once. Only deliveries recorded so count towards the
 * delivery limit ({@link Triage}).
 */
final class Isolation {
    private static final Logger LOG = LoggerFactory.getLogger(Isolation.class);

    private final InFlight inFlight;
    private final JobLeases leases;
    private final ConsumerName consumer;
    private final JobObserver observer;

    Isolation(InFlight inFlight, JobLeases leases, ConsumerName consumer, JobObserver observer) {
        this.inFlight = inFlight;
        this.leases = leases;
        this.consumer = consumer;
        this.observer = observer;
    }

    /**
     * Runs {@code attempt}: at once when {@code runs} holds no suspect, else alone in the worker.
     *
     * @return how the runs ended; the suspect is not ours when another consumer took it over while it waited, and
     *         left pending when the worker stopped meanwhile
     */
    Map<HeldDelivery, Ending> run(List<Triage.Run> runs, Supplier<Map<HeldDelivery, Ending>> attempt) {
        if (runs.stream().noneMatch(run -> run.delivery().suspect())) {
            return attempt.get();
        }
        if (runs.size() != 1) {
            throw new IllegalStateException("a suspect must run alone, not in a batch of " + runs.size());
        }
        Triage.Run suspect = runs.get(0);
        try {
            inFlight.takeOtherSlots();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            LOG.info("worker stopping, suspect left pending consumer={} {}", consumer, suspect.held());
            return Map.of(suspect.held(), Ending.LEFT_PENDING);
        }
        try {
            return isolated(suspect, attempt);
        } finally {
            inFlight.freeOtherSlots();
        }
    }

    private Map<HeldDelivery, Ending> isolated(Triage.Run suspect, Supplier<Map<HeldDelivery, Ending>> attempt) {
        Delivery.Leased delivery = suspect.delivery();
        OptionalLong isolated = leases.isolate(delivery, consumer);
        if (isolated.isEmpty()) {
            // another consumer took it over while it waited: that one runs it
            suspect.held().loseLease();
            LOG.info("suspect taken over by another consumer while it waited, not run consumer={} {}", consumer,
                    suspect.held());
            return Map.of(suspect.held(), Ending.NOT_OURS);
        }
        observer.suspectIsolated(delivery.job(), isolated.getAsLong());
        LOG.info("suspect runs alone consumer={} {} job={} deliveries={} isolated={}", consumer, suspect.held(),
                delivery.job().id(), delivery.deliveryCount(), isolated.getAsLong());
        return attempt.get();
    }
}
