package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.JobId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One task on a job thread: triages its deliveries (those the dispatcher marked cancelled are settled as such),
 * settles those that do not run, executes the rest as one run (or one batch; a suspect alone in the worker) and ends
 * each run. Every delivery so gets one {@link Ending}, and the slots are given back for all of them at once.
 */
final class Processor {
    private static final Logger LOG = LoggerFactory.getLogger(Processor.class);

    private final Triage triage;
    private final AttemptExecutor executor;
    private final Finisher finisher;
    private final Suspects suspects;
    private final InFlight inFlight;
    private final ConsumerName consumer;

    Processor(Triage triage, AttemptExecutor executor, Finisher finisher, Suspects suspects, InFlight inFlight,
              ConsumerName consumer) {
        this.triage = triage;
        this.executor = executor;
        this.finisher = finisher;
        this.suspects = suspects;
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
        Map<HeldDelivery, Ending> endings = new HashMap<>();
        try {
            Set<JobId> cancelled = markedCancelled(batch);
            List<Triage.Run> runs = new ArrayList<>(batch.size());
            for (HeldDelivery held : batch) {
                try {
                    Triage.Verdict verdict = triage.of(held, cancelled);
                    if (verdict instanceof Triage.Run run) {
                        runs.add(run);
                    } else {
                        endings.put(held, finisher.settle((Triage.Settled) verdict));
                    }
                } catch (RuntimeException e) {
                    endings.put(held, finisher.leftPending(held, e));
                }
            }
            if (!runs.isEmpty()) {
                endings.putAll(suspects.runAlone(runs, () -> finisher.finish(executor.execute(runs))));
            }
        } catch (Throwable e) {
            LOG.warn("could not finish deliveries, left pending for redelivery consumer={} count={}", consumer,
                    batch.size(), e);
        } finally {
            // never lose an entry: what did not end otherwise stays pending and comes back after the lease
            batch.forEach(held -> endings.putIfAbsent(held, Ending.LEFT_PENDING));
            inFlight.end(endings);
        }
    }
}
