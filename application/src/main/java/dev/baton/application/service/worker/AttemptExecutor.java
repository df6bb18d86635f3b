package dev.baton.application.service.worker;

import dev.baton.application.handler.JobContext;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerTransaction;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one job, or a batch of jobs one after the other, in one ledger call: the effects and the completions commit
 * together, and the jobs share one deadline, {@code jobTimeout} from the start. Every end of every job comes back as
 * its {@link LedgerOutcome}; a handler that throws, or an attempt cut short, is an {@link LedgerOutcome.EffectFailed}.
 * Each attempt is traced from here until the finisher settles it; its handler runs with the attempt's trace current.
 */
final class AttemptExecutor {
    private static final Logger LOG = LoggerFactory.getLogger(AttemptExecutor.class);

    private final ExecutionLedger ledger;
    private final ConsumerName consumer;
    private final Duration jobTimeout;
    private final Clock clock;
    private final JobObserver observer;
    private final JobTracing tracing;

    AttemptExecutor(ExecutionLedger ledger, ConsumerName consumer, Duration jobTimeout, Clock clock,
                    JobObserver observer, JobTracing tracing) {
        this.ledger = ledger;
        this.consumer = consumer;
        this.jobTimeout = jobTimeout;
        this.clock = clock;
        this.observer = observer;
        this.tracing = tracing;
    }

    /** @return one attempt per run, in order */
    List<RunOutcome> execute(List<Triage.Run> batch) {
        Instant started = clock.instant();
        Instant deadline = started.plus(jobTimeout);
        List<ExecutionLedger.Step> steps = new ArrayList<>(batch.size());
        List<JobTracing.AttemptTrace> traces = new ArrayList<>(batch.size());
        for (Triage.Run run : batch) {
            Job job = run.delivery().job();
            Duration waited = Duration.between(job.enqueuedAt(), started);
            observer.jobStarted(job, waited.isNegative() ? Duration.ZERO : waited);
            LOG.debug("job started queue={} job={} attempt={} delivery={}", job.queue(), job.id(),
                    job.currentAttempt(), run.delivery().id());
            ExecutionLedger.Execution execution = new ExecutionLedger.Execution(job, consumer, run.delivery().id(),
                    run.delivery().deliveryCount(), deadline);
            JobTracing.AttemptTrace trace = tracing.attemptStarted(job);
            traces.add(trace);
            steps.add(new ExecutionLedger.Step(execution, transaction -> trace.during(() -> run.held().runHandler(
                    run.handler(), new Context(job, job.currentAttempt(), consumer, deadline, run.held(),
                    transaction)))));
        }
        long timeoutAt = System.nanoTime() + jobTimeout.toNanos();
        batch.forEach(run -> run.held().startDeadline(timeoutAt));
        List<LedgerOutcome> outcomes;
        try {
            outcomes = ledger.executeAll(steps);
        } finally {
            batch.forEach(run -> run.held().clearDeadline());
        }
        Duration took = Duration.between(started, clock.instant());
        List<RunOutcome> attempts = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            Triage.Run run = batch.get(i);
            attempts.add(new RunOutcome(run.held(), run.delivery(), outcomes.get(i), took, traces.get(i)));
        }
        return attempts;
    }

    private record Context(Job job, int attempt, ConsumerName consumer, Instant deadline, HeldDelivery held,
                           LedgerTransaction transaction) implements JobContext {
        @Override
        public boolean cancelled() {
            return held.isCancelled();
        }

        @Override
        public <T> T unwrap(Class<T> type) {
            return transaction.unwrap(type);
        }
    }
}
