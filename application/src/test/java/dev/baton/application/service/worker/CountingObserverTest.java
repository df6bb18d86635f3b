package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.in.WorkerCounters;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.Completion;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class CountingObserverTest {

    @Test
    void countsWhatTheCountersShowAndPassesEveryEventOn() {
        List<String> heard = new CopyOnWriteArrayList<>();
        Object user = Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {JobObserver.class, MaintenanceObserver.class}, (proxy, method, args) -> {
                    heard.add(method.getName());
                    return null;
                });
        CountingObserver counting = new CountingObserver((JobObserver) user, (MaintenanceObserver) user);
        Job job = Deliveries.leased("j").job();

        counting.jobEnqueued(job);
        counting.jobStarted(job, Duration.ZERO);
        counting.jobCompleted(job, Duration.ZERO);
        counting.jobCompleted(job, Duration.ZERO);
        counting.duplicateSkipped(job, new Completion(job.id(), job.queue(), job.type(), 1, ConsumerName.of("w"),
                "1-0", Optional.empty(), Deliveries.NOW));
        counting.suspectIsolated(job, 2);
        counting.jobFailed(job, JobError.retryable("io", "reset"));
        counting.jobRetried(job, Deliveries.NOW);
        counting.jobSnoozed(job, Deliveries.NOW);
        counting.jobSnoozed(job, Deliveries.NOW);
        counting.jobCancelled(job);
        counting.jobDeadLettered(DeadLetter.of(job, DeadLetterReason.POISON, JobError.permanent("poison", "p"), 3,
                Deliveries.NOW));
        counting.reclaimed(job.queue(), 3);
        counting.leaseLost(job.queue(), Deliveries.nextId());
        counting.vanished(job.queue(), 2);
        counting.trimmed(job.queue(), TrimOutcome.NOTHING);
        counting.outboxPublished(5);
        counting.outboxRepublished(1);

        assertThat(counting.counters(4, 1)).isEqualTo(new WorkerCounters(2, 1, 1, 1, 3, 1, 4, 1, 1, 2, 1));
        assertThat(heard).hasSize(18);
        assertThat(Set.copyOf(heard)).isEqualTo(Stream.of(JobObserver.class, MaintenanceObserver.class)
                .flatMap(port -> Arrays.stream(port.getDeclaredMethods())).map(Method::getName)
                .collect(Collectors.toSet()));
    }
}
