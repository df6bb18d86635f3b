package dev.baton.application.service.schedule;

import dev.baton.application.port.in.RunSchedulerUseCase;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.ScheduleFires;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link SchedulerLoop} at a fixed delay on a daemon thread of its own. No leader is elected: every worker
 * may run one, and the transport's atomic fire keeps each fire time's job single.
 */
public final class SchedulerService implements RunSchedulerUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(SchedulerService.class);

    private final ScheduleFires fires;
    private final Clock clock;
    private final JobObserver observer;

    /** @param observer hears each job a fire enqueued ({@link JobObserver#jobEnqueued}) */
    public SchedulerService(ScheduleFires fires, Clock clock, JobObserver observer) {
        this.fires = fires;
        this.clock = clock;
        this.observer = observer;
    }

    @Override
    public RunningScheduler start(Command command) {
        SchedulerLoop loop = new SchedulerLoop(fires, command.schedules(), command.grace(), clock, observer);
        ScheduledExecutorService thread = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread scheduler = new Thread(runnable, "baton-scheduler");
            scheduler.setDaemon(true);
            return scheduler;
        });
        // runOnce never throws (each schedule's failure is caught), so the fixed delay goes on for ever
        thread.scheduleWithFixedDelay(loop::runOnce, 0, command.interval().toNanos(), TimeUnit.NANOSECONDS);
        LOG.info("scheduler started schedules={} interval={}", command.schedules().size(), command.interval());
        return () -> {
            thread.shutdown();
            try {
                thread.awaitTermination(command.interval().toMillis() + 10_000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
    }
}
