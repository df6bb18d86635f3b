package dev.baton.application.service.worker;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.JobHandlers;
import dev.baton.application.port.out.Delivery;
import dev.baton.domain.Completion;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.HumanDuration;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.NoHandlerDecision;
import dev.baton.domain.NoHandlerPolicy;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides what becomes of a delivery before anything runs: an operator's cancel is acknowledged, poison and malformed
 * entries go to the dead letters, a job that no handler of this worker takes waits for a worker that has one (and is
 * dead-lettered as NO_HANDLER once the {@link NoHandlerPolicy}'s grace has passed), the rest run under their handler.
 * What becomes of a suspect follows the suspect protocol ({@link Suspects#settle}): poison is dead-lettered, and a
 * suspect that committed before its worker died is acknowledged without running.
 */
final class Triage {
    private final Suspects suspects;
    private final JobHandlers handlers;
    private final Optional<String> defaultHandler;
    private final NoHandlerPolicy noHandlerPolicy;
    private final Clock clock;

    /** @param defaultHandler the handler of untyped jobs; when empty, the handler named like the queue */
    Triage(Suspects suspects, JobHandlers handlers, Optional<String> defaultHandler, NoHandlerPolicy noHandlerPolicy,
           Clock clock) {
        this.suspects = suspects;
        this.handlers = handlers;
        this.defaultHandler = defaultHandler;
        this.noHandlerPolicy = noHandlerPolicy;
        this.clock = clock;
    }

    /** What to do with a held delivery: run it, or settle it without running. */
    sealed interface Verdict {
    }

    /** Runs under {@code handler}. */
    record Run(HeldDelivery held, Delivery.Leased delivery, JobHandler handler) implements Verdict {
    }

    /** Ends without running. */
    sealed interface Settled extends Verdict {
    }

    /** Committed before its worker died between the commit and the acknowledgement: acknowledged, not run. */
    record Completed(HeldDelivery held, Delivery.Leased delivery, Completion completion) implements Settled {
    }

    /** An operator cancelled it: acknowledged, not run. */
    record Cancelled(HeldDelivery held, Delivery.Leased delivery) implements Settled {
    }

    /**
     * Goes to the dead letters as it is, without an attempt: poison, malformed, or without a handler past the grace
     * ({@code letter}'s reason).
     */
    record Refused(HeldDelivery held, DeadLetter letter) implements Settled {
    }

    /**
     * No handler of this worker takes it: it waits in the delayed set as {@code waiting} (no attempt spent) for a
     * worker that has one. {@code problem} names the handler it needs and those this worker has.
     */
    record Released(HeldDelivery held, Delivery.Leased delivery, Job waiting, String problem) implements Settled {
    }

    /** @param cancelled the jobs an operator cancelled, among those of the delivery's batch */
    Verdict of(HeldDelivery held, Set<JobId> cancelled) {
        Delivery delivery = held.delivery();
        if (delivery instanceof Delivery.Leased leased && cancelled.contains(leased.job().id())) {
            return new Cancelled(held, leased);
        }
        if (delivery instanceof Delivery.Leased suspect && suspect.suspect()) {
            Optional<Settled> settled = suspects.settle(held, suspect);
            if (settled.isPresent()) {
                return settled.get();
            }
        }
        if (delivery instanceof Delivery.Malformed malformed) {
            return new Refused(held, DeadLetter.malformed(malformed.queue(), malformed.fields(), malformed.problem(),
                    clock.instant()));
        }
        Delivery.Leased leased = (Delivery.Leased) delivery;
        List<String> candidates = handlerNames(leased.job());
        Optional<JobHandler> handler = candidates.stream().map(handlers::find).flatMap(Optional::stream).findFirst();
        if (handler.isEmpty()) {
            return withoutHandler(held, leased, candidates);
        }
        return new Run(held, leased, handler.get());
    }

    private Settled withoutHandler(HeldDelivery held, Delivery.Leased leased, List<String> candidates) {
        String problem = "no handler named " + String.join(" or ", candidates) + " on this worker ("
                + (handlers.names().isEmpty() ? "it has none" : "its handlers: "
                + String.join(", ", new TreeSet<>(handlers.names()))) + ")";
        Instant now = clock.instant();
        NoHandlerDecision decision = noHandlerPolicy.decide(leased.job(), now);
        if (decision instanceof NoHandlerDecision.Release release) {
            return new Released(held, leased, release.waiting(), problem);
        }
        NoHandlerDecision.DeadLetterNow dead = (NoHandlerDecision.DeadLetterNow) decision;
        JobError error = JobError.permanent("no-handler", problem + "; waited "
                + HumanDuration.format(dead.waited().truncatedTo(ChronoUnit.SECONDS)) + " for a worker that has one");
        // nothing ran: the attempts are those made before, on workers that had a handler
        return new Refused(held, DeadLetter.of(dead.job(), DeadLetterReason.NO_HANDLER, error, dead.job().attempt(),
                now));
    }

    /**
     * A typed job runs only under the handler of its type: falling back to the queue's handler would run a
     * {@code refund} as an {@code order}. An untyped job runs under the worker's handler, else the queue's.
     */
    private List<String> handlerNames(Job job) {
        if (job.type().isPresent()) {
            return List.of(job.type().get());
        }
        List<String> names = new ArrayList<>(2);
        defaultHandler.ifPresent(names::add);
        names.add(job.queue().value());
        return names.stream().distinct().toList();
    }
}
