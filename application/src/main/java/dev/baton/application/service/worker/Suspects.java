package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobObserver;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeliveryLimit;
import dev.baton.domain.JobError;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The suspect protocol, in one place. A suspect is a delivery taken over from a worker that went silent (reclaimed,
 * or this consumer's own pending entry resumed at start): it may be what killed that worker, or it merely shared the
 * worker with what did. Its rules:
 * <ol>
 *   <li>A worker takes in one suspect at a time, only while it holds none ({@link #mayTakeIn}), and leases nothing new
 *       until the suspect has begun to take the worker's other slots ({@link #letGoFirst}).</li>
 *   <li>Before it runs ({@link #settle}): a suspect that committed before its worker died (between the commit and the
 *       acknowledgement) is acknowledged without running; one whose isolated deliveries reached the delivery limit
 *       without finishing is poison, dead-lettered.</li>
 *   <li>It runs alone ({@link #runAlone}): it waits until the worker's other jobs finished (no new ones start
 *       meanwhile), records in the transport that it runs isolated, runs, and gives the slots back at once. Only
 *       deliveries recorded so count towards the delivery limit: a job that merely shared a worker that died never
 *       counts one, and alone, only it can be blamed if the worker dies again.</li>
 * </ol>
 * The slots are {@link InFlight}'s, the one owner of the slot count: it counts the suspects held, and a suspect takes
 * every other slot through it.
 */
final class Suspects {
    private static final Logger LOG = LoggerFactory.getLogger(Suspects.class);

    private final InFlight inFlight;
    private final JobLeases leases;
    private final ExecutionLedger ledger;
    private final DeliveryLimit deliveryLimit;
    private final Clock clock;
    private final ConsumerName consumer;
    private final JobObserver observer;

    Suspects(InFlight inFlight, JobLeases leases, ExecutionLedger ledger, DeliveryLimit deliveryLimit, Clock clock,
             ConsumerName consumer, JobObserver observer) {
        this.inFlight = inFlight;
        this.leases = leases;
        this.ledger = ledger;
        this.deliveryLimit = deliveryLimit;
        this.clock = clock;
        this.consumer = consumer;
        this.observer = observer;
    }

    /** Whether the worker may take in a suspect now: only while it holds none. */
    boolean mayTakeIn() {
        return !inFlight.holdsSuspect();
    }

    /**
     * Waits, at most {@code max}, until the suspect just taken in has begun to take its other slots, or is held no
     * more: the fetcher, leasing at once, would take the slots the suspect is about to wait for.
     */
    void letGoFirst(Duration max) throws InterruptedException {
        inFlight.awaitSuspectIsolating(max);
    }

    /**
     * What becomes of a suspect before it runs: acknowledged when it completed before its worker died, dead-lettered
     * as poison when its isolated deliveries reached the limit; empty when it is to run.
     */
    Optional<Triage.Settled> settle(HeldDelivery held, Delivery.Leased suspect) {
        // a job that committed before its worker died (between commit and XACK) is done, not poison
        Optional<Completion> completion = ledger.find(suspect.job().queue(), suspect.job().id());
        if (completion.isPresent()) {
            return Optional.of(new Triage.Completed(held, suspect, completion.get()));
        }
        if (deliveryLimit.exceededBy(suspect.isolatedDeliveries() + 1)) {
            return Optional.of(poison(held, suspect));
        }
        return Optional.empty();
    }

    private Triage.Refused poison(HeldDelivery held, Delivery.Leased suspect) {
        String problem = "ran alone in its worker " + suspect.isolatedDeliveries() + " times and never finished ("
                + suspect.deliveryCount() + " deliveries), the delivery limit is " + deliveryLimit.maxDeliveries();
        DeadLetter letter = DeadLetter.of(suspect.job(), DeadLetterReason.POISON, JobError.permanent("poison",
                problem), (int) Math.min(suspect.deliveryCount(), Integer.MAX_VALUE), clock.instant());
        return new Triage.Refused(held, letter);
    }

    /**
     * Runs {@code attempt}: at once when {@code runs} holds no suspect, else alone in the worker.
     *
     * @return how the runs ended; the suspect is not ours when another consumer took it over while it waited, and
     *         left pending when the worker stopped meanwhile
     */
    Map<HeldDelivery, Ending> runAlone(List<Triage.Run> runs, Supplier<Map<HeldDelivery, Ending>> attempt) {
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
