package dev.baton.application.service.worker;

import dev.baton.application.port.in.RunningWorker;
import dev.baton.application.port.in.WorkerCounters;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One started worker's lifecycle: it starts leasing, then its loops; it stops leasing first, gives running jobs the
 * grace period (their leases still extended), abandons the rest to other consumers, sends the acknowledgements of what
 * finished, and only then ends its loops and gives back its consumer name.
 */
final class Worker implements RunningWorker {
    private static final Logger LOG = LoggerFactory.getLogger(Worker.class);
    private static final Duration ABANDON_WAIT = Duration.ofSeconds(5);

    private final ConsumerClaim claim;
    private final ConsumerName consumer;
    private final Fetcher fetcher;
    private final PausedQueues pauses;
    private final ExecutorService jobs;
    private final InFlight inFlight;
    private final Acknowledgements<HandedOver> acknowledgements;
    private final Loops loops;
    private final CountingObserver counting;
    private final Duration defaultGrace;
    private final CountDownLatch stopped = new CountDownLatch(1);
    private volatile boolean stopping;
    private Integer abandoned;

    Worker(ConsumerClaim claim, Fetcher fetcher, PausedQueues pauses, ExecutorService jobs, InFlight inFlight,
           Acknowledgements<HandedOver> acknowledgements, Loops loops, CountingObserver counting,
           Duration defaultGrace) {
        this.claim = claim;
        this.consumer = claim.name();
        this.fetcher = fetcher;
        this.pauses = pauses;
        this.jobs = jobs;
        this.inFlight = inFlight;
        this.acknowledgements = acknowledgements;
        this.loops = loops;
        this.counting = counting;
        this.defaultGrace = defaultGrace;
    }

    void start() {
        fetcher.start();
        loops.start();
    }

    @Override
    public synchronized int stop(Duration grace) {
        if (abandoned != null) {
            return abandoned;
        }
        LOG.info("worker stopping consumer={} running={} grace={}", consumer, inFlight.size(), grace);
        stopping = true;
        fetcher.stopLeasing();
        loops.leasingStopped();
        int left = 0;
        try {
            fetcher.awaitStopped();
            jobs.shutdown();
            if (!jobs.awaitTermination(grace.toNanos(), TimeUnit.NANOSECONDS)) {
                left = inFlight.abandonAll();
                jobs.shutdownNow();
                if (!jobs.awaitTermination(ABANDON_WAIT.toNanos(), TimeUnit.NANOSECONDS)) {
                    LOG.warn("some handlers ignore interruption; their threads are left behind consumer={}",
                            consumer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            left = inFlight.abandonAll();
            jobs.shutdownNow();
        }
        try {
            acknowledgements.close(ABANDON_WAIT); // what finished in the grace period is acknowledged now
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        loops.shutdownNow();
        inFlight.clear();
        claim.release();
        abandoned = left;
        stopped.countDown();
        LOG.info("worker stopped consumer={} abandoned={} completed={}", consumer, left, counters().completed());
        return left;
    }

    @Override
    public ConsumerName consumer() {
        return consumer;
    }

    @Override
    public boolean isRunning() {
        return fetcher.isLeasing();
    }

    @Override
    public void await() throws InterruptedException {
        fetcher.awaitStopped();
        // set before leasing stops, so a stop under way is waited for; a fetcher that ended by itself is not
        if (stopping) {
            stopped.await();
        }
    }

    @Override
    public WorkerCounters counters() {
        return counting.counters(inFlight.size(), inFlight.suspects());
    }

    @Override
    public Set<QueueName> pausedQueues() {
        return pauses.current();
    }

    @Override
    public void close() {
        stop(defaultGrace);
    }
}
