package dev.baton.application.port.out;

import dev.baton.domain.Job;
import java.util.Map;
import java.util.Optional;

/**
 * Traces the life of jobs across processes: a producer's sending of a job, and every attempt a worker makes at it,
 * in the trace the job carries in its headers (see docs/OPERATIONS.md, "Tracing"). Implementations must be quick and
 * thread-safe and must not throw: tracing never changes what happens to a job.
 */
public interface JobTracing {

    /** Traces nothing: jobs travel as they are. */
    JobTracing NONE = new JobTracing() {
        @Override
        public Sending sending(Job job) {
            return () -> job;
        }

        @Override
        public AttemptTrace attemptStarted(Job job) {
            return AttemptTrace.NONE;
        }
    };

    /** Starts tracing the sending of {@code job}: the sending's job carries the trace context in its headers. */
    Sending sending(Job job);

    /** Starts tracing an attempt at {@code job}, in the trace its headers carry. */
    AttemptTrace attemptStarted(Job job);

    /** One job being sent. */
    interface Sending {

        /** The job to publish: the job given, with the headers that carry the trace context added. */
        Job job();

        /** The job was published. */
        default void sent() {
        }

        /** Publishing the job failed with {@code failure}. */
        default void failed(RuntimeException failure) {
        }
    }

    /** One attempt at a job, from its start to how it ended. */
    interface AttemptTrace {
        AttemptTrace NONE = new AttemptTrace() {
        };

        /** Runs the handler of the attempt with the attempt's trace current, so that what it traces joins it. */
        default <T> T during(HandlerCall<T> handler) throws Exception {
            return handler.call();
        }

        /** Headers that a retry of this job carries, so that its attempts can point back to this one. */
        default Map<String, String> retryHeaders() {
            return Map.of();
        }

        /** The attempt ended as {@code end}; {@code cause} is what failed it, if anything. Called at most once. */
        default void ended(AttemptEnd end, Optional<Throwable> cause) {
        }
    }

    /** The handler's run within an attempt. */
    @FunctionalInterface
    interface HandlerCall<T> {
        T call() throws Exception;
    }

    /** How an attempt ended, as the worker settled it. */
    enum AttemptEnd {
        /** The effect committed; the job is acknowledged. */
        COMPLETED,
        /** The job had already completed: acknowledged without committing again. */
        DUPLICATE,
        /** The attempt failed; the job runs again later. */
        RETRIED,
        /** The handler snoozed the job: it runs again later, with the same attempt, and nothing committed. */
        SNOOZED,
        /** An operator cancelled the job: acknowledged without a retry, nothing committed. */
        CANCELLED,
        /** The attempt failed for good; the job went to the dead letters. */
        DEAD_LETTERED,
        /** The ledger could not tell whether the effect committed; the job's redelivery asks again. */
        LEFT_PENDING,
        /** The lease was lost or the worker stopped meanwhile: another delivery settles the job. */
        NOT_SETTLED
    }
}
