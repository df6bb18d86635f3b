package dev.baton.application.service.worker;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.Lease;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.service.FailureStreak;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The worker's one leasing thread. It declares the queues, reads which are paused and first resumes the oldest entry
 * this consumer held when it last stopped in the others; then, again and again, it takes the free slots (waiting
 * while all are busy), takes in a reclaimed entry when recovery is due, else fills them with new entries leased
 * round-robin over the queues that are not paused, and dispatches what came. It never leases more than it has slots
 * for: one per job the worker runs at once, and while its jobs are short, some for deliveries leased ahead, which it
 * sizes at the start of every turn ({@link LeaseAhead}). A transport failure pauses it, it never ends it; a ledger
 * that did not answer a job's transaction stops it leasing until the ledger answers again ({@link LedgerOutage}).
 *
 * <p>While its queues have work, a lease after one that brought entries goes without waiting and carries the
 * acknowledgements that gathered meanwhile in front of it, in the same round trip
 * ({@link Acknowledgements#leaseAfter}): a busy worker so pays one round trip per turn, not two. A lease that finds
 * nothing hands the acknowledgements back to their sender before it waits for new entries, as does every other wait of
 * the fetcher.
 *
 * <p>A resumed or reclaimed entry is a suspect, which runs alone ({@link Suspects}): this worker takes in one at a
 * time, and leases nothing new in the turn it took one, so that the suspect soon has the worker to itself. What else
 * this consumer held stays pending; after a lease it is reclaimed like any silent consumer's entries, one suspect at
 * a time, by this worker or another.
 */
final class Fetcher {
    private static final Logger LOG = LoggerFactory.getLogger(Fetcher.class);

    private final JobLeases leases;
    private final QueueMaintenance maintenance;
    private final List<QueueName> queues;
    private final ConsumerName consumer;
    private final Duration blockPerQueue;
    private final InFlight inFlight;
    private final Recovery recovery;
    private final Suspects suspects;
    private final PausedQueues pauses;
    private final Dispatcher dispatcher;
    private final Acknowledgements<HandedOver> acknowledgements;
    private final LeaseAhead ahead;
    private final Thread thread;
    private final AtomicBoolean leasing = new AtomicBoolean(true);
    private final LedgerOutage ledger;
    private final FailureStreak leaseFailures = new FailureStreak();
    /** The last lease brought entries (only the fetcher's thread reads and writes it). */
    private boolean busy;

    /** @param block how long one round over the queues may wait for new entries; split over the queues */
    Fetcher(JobLeases leases, QueueMaintenance maintenance, List<QueueName> queues, ConsumerName consumer,
            Duration block, InFlight inFlight, Recovery recovery, Suspects suspects, PausedQueues pauses,
            Dispatcher dispatcher, Acknowledgements<HandedOver> acknowledgements, LeaseAhead ahead,
            LedgerOutage ledger, ThreadFactory threads) {
        this.leases = leases;
        this.maintenance = maintenance;
        this.queues = List.copyOf(queues);
        this.consumer = consumer;
        // one worker blocks on its queues in turn: together they wait no longer than one block
        Duration split = block.dividedBy(queues.size());
        this.blockPerQueue = split.isZero() ? Duration.ofMillis(1) : split;
        this.inFlight = inFlight;
        this.recovery = recovery;
        this.suspects = suspects;
        this.pauses = pauses;
        this.dispatcher = dispatcher;
        this.acknowledgements = acknowledgements;
        this.ahead = ahead;
        this.ledger = ledger;
        this.thread = threads.newThread(this::run);
    }

    void start() {
        thread.start();
    }

    boolean isLeasing() {
        return leasing.get();
    }

    /** Stops leasing: interrupts a blocking read, and leases nothing more. */
    void stopLeasing() {
        leasing.set(false);
        thread.interrupt();
    }

    /** Waits until the last lease is dispatched: it gets the grace period like the others. */
    void awaitStopped() throws InterruptedException {
        thread.join();
    }

    private void run() {
        try {
            for (QueueName queue : queues) {
                retrying("declare " + queue, () -> leases.declare(queue));
            }
            // a pause outlives workers: a worker restarted while its queue is paused must not run a job of it
            retrying("read paused queues", pauses::refresh);
            resumeOldestOwnPending();
            FailureBackoff backoff = new FailureBackoff();
            for (int turn = 0; leasing.get(); turn++) {
                // jobs leased while the ledger does not answer would only be left pending
                ledger.awaitAnswer(acknowledgements::sendDirectly, leasing::get);
                inFlight.leaseAhead(ahead.depth());
                int wanted = inFlight.takeFreeSlots(acknowledgements::sendDirectly);
                // after the wait for slots, however long: a lease never acts on pauses older than a check interval
                pauses.refreshIfDue();
                // abandoned work first; reclaiming here, with the slots in hand, cannot starve behind the lease
                if (recovery.runOnce(wanted).reclaimed() > 0) {
                    inFlight.freeSlots(wanted - 1); // the suspect is to run alone: nothing new this turn
                    letSuspectGoFirst();
                    continue;
                }
                QueueName queue = queues.get(turn % queues.size());
                if (pauses.isPaused(queue)) {
                    inFlight.freeSlots(wanted);
                    if (pauses.allPaused()) {
                        acknowledgements.sendDirectly();
                        pauses.awaitNextCheck();
                    }
                } else if (!lease(queue, wanted, backoff)) {
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            acknowledgements.sendDirectly(); // what finishes after the last lease has no lease to ride
        }
    }

    /** @return false when a stop interrupted the lease */
    private boolean lease(QueueName queue, int wanted, FailureBackoff backoff) throws InterruptedException {
        try {
            Lease leased = Lease.empty();
            if (busy) { // the last lease brought entries: this one likely does too, without waiting
                leased = acknowledgements.leaseAfter(queue,
                        acknowledged -> leases.acknowledgeAndLease(queue, acknowledged, consumer, wanted));
            }
            if (leased.isEmpty()) {
                acknowledgements.sendDirectly(); // this lease may wait: what finishes meanwhile must not
                leased = leases.lease(queue, consumer, wanted, pauses.blockUntilNextCheck(blockPerQueue));
            }
            busy = !leased.isEmpty();
            if (busy) {
                acknowledgements.holdForLease();
            }
            inFlight.freeSlots(wanted - leased.size());
            dispatcher.dispatch(leased);
            backoff.reset();
            int failed = leaseFailures.succeeded();
            if (failed > 0) {
                LOG.info("leasing works again after {} failed leases consumer={}", failed, consumer);
            }
        } catch (RuntimeException e) {
            busy = false;
            acknowledgements.sendDirectly();
            inFlight.freeSlots(wanted);
            if (!leasing.get()) {
                return false; // a graceful stop interrupted the blocking read: not a failure
            }
            long millis = backoff.next();
            LOG.atLevel(leaseFailures.failed()).log("lease failed, retrying in {} ms consumer={} queue={}: {}", millis,
                    consumer, queue, e.toString());
            Thread.sleep(millis);
        }
        return true;
    }

    /**
     * Runs the oldest entry this consumer held when it last stopped, before leasing anything new: a suspect, as it may
     * be what stopped this consumer.
     */
    private void resumeOldestOwnPending() throws InterruptedException {
        for (QueueName queue : queues) {
            if (pauses.isPaused(queue)) {
                continue; // what it held of a paused queue is reclaimed once the queue is resumed
            }
            List<Delivery> own = new ArrayList<>(1);
            retrying("resume pending of " + queue, () -> own.addAll(maintenance.leaseOwnPending(queue, consumer, 1)));
            if (!own.isEmpty()) {
                LOG.info("resuming the oldest own pending entry consumer={} queue={} delivery={}", consumer, queue,
                        own.get(0).id());
                inFlight.takeSlot();
                dispatcher.dispatch(own);
                letSuspectGoFirst();
                return;
            }
        }
    }

    /**
     * Takes no slot before the suspect just dispatched waits for its own (at most one blocking read's time): it runs
     * once it has every other slot, and a lease begun first would hold them.
     */
    private void letSuspectGoFirst() throws InterruptedException {
        acknowledgements.sendDirectly(); // the fetcher waits: what finishes meanwhile must not
        suspects.letGoFirst(blockPerQueue);
    }

    private void retrying(String what, Runnable action) throws InterruptedException {
        FailureBackoff backoff = new FailureBackoff();
        FailureStreak failures = new FailureStreak();
        while (leasing.get()) {
            try {
                action.run();
                int failed = failures.succeeded();
                if (failed > 0) {
                    LOG.info("{} succeeded after {} failures consumer={}", what, failed, consumer);
                }
                return;
            } catch (RuntimeException e) {
                long millis = backoff.next();
                LOG.atLevel(failures.failed()).log("{} failed, retrying in {} ms consumer={}: {}", what, millis,
                        consumer, e.toString());
                Thread.sleep(millis);
            }
        }
    }
}
