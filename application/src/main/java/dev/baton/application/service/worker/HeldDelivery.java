package dev.baton.application.service.worker;

import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.port.out.Delivery;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * One delivery this worker holds, with its {@link DeliveryState}. Guards the handler's thread, so that a deadline, a
 * cancel's grace or a stop interrupts only while the handler runs, and decides once whether the outcome may still be
 * recorded. An operator's cancel is a flag beside the state: it keeps the effect from committing, whatever the state.
 */
final class HeldDelivery {
    private static final long NO_DEADLINE = Long.MAX_VALUE;
    private static final long NOT_CANCELLED = Long.MIN_VALUE;

    private final Delivery delivery;
    private DeliveryState state = DeliveryState.HELD;
    /** The thread running the handler, while it runs; the one to interrupt. */
    private Thread runner;
    /** The {@link System#nanoTime()} at which the running attempt times out. */
    private volatile long deadline = NO_DEADLINE;
    /** The {@link System#nanoTime()} at which this worker saw the job cancelled; {@link #NOT_CANCELLED} until then. */
    private long cancelledAt = NOT_CANCELLED;
    private volatile boolean cancelled;

    HeldDelivery(Delivery delivery) {
        this.delivery = Objects.requireNonNull(delivery, "delivery");
    }

    Delivery delivery() {
        return delivery;
    }

    /** Delivered before to a worker that went silent: it runs alone ({@link Suspects}). */
    boolean isSuspect() {
        return delivery instanceof Delivery.Leased leased && leased.suspect();
    }

    /**
     * Runs the handler on this thread unless the attempt was cut short, and refuses its result when the attempt was
     * cut short meanwhile: throwing inside the ledger's effect rolls the effect back.
     */
    Optional<String> runHandler(JobHandler handler, JobContext context) throws Exception {
        synchronized (this) {
            // the deadline may pass while the ledger waits for another attempt of the same job to end
            if (!state.mayRunEffect()) {
                throw new AttemptCancelled(state.isPastDeadline() ? "the deadline passed before the handler started"
                        : "the worker is stopping");
            }
            if (cancelled) {
                throw new AttemptCancelled("the job was cancelled before its handler started");
            }
            runner = Thread.currentThread();
        }
        Optional<String> result;
        try {
            result = handler.handle(context);
        } finally {
            synchronized (this) {
                runner = null;
            }
            Thread.interrupted(); // a deadline's interrupt must not leak into the commit or the next job
        }
        synchronized (this) {
            if (!state.mayRunEffect()) {
                throw new AttemptCancelled(state.isPastDeadline() ? "the attempt ran past its deadline"
                        : "the worker stopped");
            }
            if (cancelled) {
                throw new AttemptCancelled("the job was cancelled while its handler ran");
            }
        }
        return Objects.requireNonNullElse(result, Optional.empty());
    }

    /** The attempt starts: it times out at {@code nanoTime} ({@link System#nanoTime()}). */
    void startDeadline(long nanoTime) {
        deadline = nanoTime;
    }

    /** The attempt ended: no deadline applies any more. */
    void clearDeadline() {
        deadline = NO_DEADLINE;
    }

    boolean overdueAt(long nanoTime) {
        long at = deadline;
        return at != NO_DEADLINE && nanoTime - at >= 0;
    }

    /**
     * Marks the job cancelled by an operator, seen at {@code nanoTime}: its handler hears it
     * ({@code JobContext.cancelled()}), may not start, and its effect may not commit.
     */
    synchronized void cancel(long nanoTime) {
        if (!cancelled) {
            cancelled = true;
            cancelledAt = nanoTime;
        }
    }

    boolean isCancelled() {
        return cancelled;
    }

    /** True when the job was cancelled at least {@code grace} before {@code nanoTime}: its handler is to stop now. */
    synchronized boolean cancelledLongerThan(Duration grace, long nanoTime) {
        return cancelled && nanoTime - cancelledAt >= grace.toNanos();
    }

    /** Marks the attempt as past its deadline: its handler may no longer start, and its effect not commit. */
    synchronized void timeOut() {
        state = state.atDeadline();
    }

    /** Interrupts the handler, if it runs now. */
    synchronized void interruptHandler() {
        if (runner != null) {
            runner.interrupt();
        }
    }

    synchronized boolean isPastDeadline() {
        return state.isPastDeadline();
    }

    /** @return true when this call marked the lease lost (not finishing, not lost before) */
    synchronized boolean loseLease() {
        DeliveryState before = state;
        state = state.leaseLost();
        return state != before;
    }

    /** Gives the delivery up at stop, interrupting its handler. @return false when it was already finishing */
    synchronized boolean abandon() {
        state = state.abandoned();
        if (state != DeliveryState.ABANDONED) {
            return false;
        }
        interruptHandler();
        return true;
    }

    /** @return true when the outcome may be recorded; from now on it can be neither lost nor abandoned */
    synchronized boolean beginFinish() {
        DeliveryState before = state;
        state = state.finishing();
        return before != state;
    }

    @Override
    public String toString() {
        return "queue=" + delivery.queue() + " delivery=" + delivery.id();
    }

    /** Thrown inside the effect to roll it back when the attempt was cut short. */
    static final class AttemptCancelled extends Exception {
        AttemptCancelled(String message) {
            super(message);
        }
    }
}
