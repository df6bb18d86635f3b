package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task on a job thread: triages its deliveries (those the dispatcher marked cancelled are settled as such),
 * settles those that do not run, executes the rest as one attempt (or one batch; a suspect alone in the worker) and
 * ends each attempt, then frees the slots of all, and releases those not handed over for acknowledgement.
 */
final class Processor {
    private static final Logger LOG = LoggerFactory.getLogger(Processor.class);

    private final Triage triage;
    private final AttemptExecutor executor;
    private final Finisher finisher;
    private final Isolation isolation;
    private final InFlight inFlight;
    private final ConsumerName consumer;

    Processor(Triage triage, AttemptExecutor executor, Finisher finisher, Isolation isolation, InFlight inFlight,
              ConsumerName consumer) {
        this.triage = triage;
        this.executor = executor;
        this.finisher = finisher;
        this.isolation = isolation;
        this.inFlight = inFlight;
        this.consumer = consumer;
    }

    private static Set<JobId> markedCancelled(List<HeldDelivery> batch) {
        Set<JobId> cancelled = new HashSet<>();
        for (HeldDelivery held : batch) {
            if (held.isCancelled() && held.delivery() instanceof Delivery.Leased leased) {
                cancelled.add(leased.job().id());
            }
        }
        return cancelled;
    }

    void process(List<HeldDelivery> batch) {
        Set<HeldDelivery> handedOver = new HashSet<>();
        try {
            Set<JobId> cancelled = markedCancelled(batch);
            List<Triage.Run> runs = new ArrayList<>(batch.size());
            for (HeldDelivery held : batch) {
                try {
                    Triage.Verdict verdict = triage.of(held, cancelled);
                    if (verdict instanceof Triage.Run run) {
                        runs.add(run);
                    } else {
                        handedOver.addAll(finisher.settle((Triage.Settled) verdict));
                    }
                } catch (RuntimeException e) {
                    finisher.leftPending(held, e);
                }
            }
            if (!runs.isEmpty()) {
                handedOver.addAll(isolation.run(runs, () -> finisher.finish(executor.execute(runs))));
            }
        } catch (Throwable e) {
            // never lose an entry: what was not finished stays pending and comes back after the lease
            LOG.warn("could not finish deliveries, left pending for redelivery consumer={} count={}", consumer,
                    batch.size(), e);
        } finally {
            // what was handed over stays held until acknowledged, but its effect committed: its slot is free now
            inFlight.release(batch.stream().filter(held -> !handedOver.contains(held)).toList());
            inFlight.freeSlots(handedOver.size());
        }
    }
}
