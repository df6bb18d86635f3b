package dev.baton.bootstrap.admin;

import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The browser side of the admin server: the pages ({@code /}, {@code /dashboard/*}, see {@link StaticFiles}) and the
 * live throughput ({@code /api/events}, see {@link EventStream}). The sampler behind the events starts with the first
 * connection, so a process nobody watches reads nothing; then it reads every queue's totals once a second.
 */
public final class Dashboard implements Routes.Group, AutoCloseable {
    /** One sample a second for 15 minutes. */
    static final int HISTORY = 15 * 60;
    private static final Duration PERIOD = Duration.ofSeconds(1);

    private final ThroughputSampler sampler;
    private final ScheduledExecutorService schedule;
    private boolean started;

    /**
     * @param queues the queues to sample, asked again every second (the overview's queues)
     * @param redact what a failed sample's message goes through before it is logged
     */
    public Dashboard(ReadQueueTotalsUseCase totals, Supplier<List<QueueName>> queues, UnaryOperator<String> redact) {
        this.sampler = new ThroughputSampler(totals, queues, Clock.systemUTC(), HISTORY, redact);
        this.schedule = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "baton-dashboard-sampler");
            thread.setDaemon(true);
            return thread;
        });
    }

    @Override
    public void addTo(Routes routes) {
        StaticFiles files = new StaticFiles(Dashboard.class.getClassLoader());
        routes.get("/api/events", new EventStream(sampler, this::start));
        routes.get("/", files);
        routes.get("/dashboard/{*}", files);
    }

    private synchronized void start() {
        if (!started) {
            started = true;
            schedule.scheduleAtFixedRate(sampler::runOnce, 0, PERIOD.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    @Override
    public void close() {
        schedule.shutdownNow();
    }
}
