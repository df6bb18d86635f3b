package dev.baton.bootstrap.admin;

import dev.baton.application.port.in.CountCompletionsUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.InspectQueueUseCase.QueueReport;
import dev.baton.application.port.in.ListDelayedJobsUseCase;
import dev.baton.application.port.in.ListPartitionsUseCase;
import dev.baton.application.port.in.ListQueuesUseCase;
import dev.baton.application.port.out.TransportException;
import dev.baton.application.service.LogText;
import dev.baton.bootstrap.json.Json;
import dev.baton.bootstrap.metrics.KnownQueues;
import dev.baton.domain.JobSighting;
import dev.baton.domain.OutboxBacklog;
import dev.baton.domain.PartitionStats;
import dev.baton.domain.QueueListing;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code GET /api/queues} (the numbers of every queue configured, consumed here or held by Redis, and the outbox's
 * backlog in exactly-once mode; a queue whose keys cannot be read is listed with an {@code error} instead, and logged
 * at WARN once) and
 * {@code GET /api/queues/{queue}} (one queue's, with its
 * consumers, its soonest delayed jobs and its partitions). A queue is known when it is configured or consumed here
 * ({@link KnownQueues}), or when Redis holds anything of it; another one is a 404.
 */
public final class QueueEndpoints implements Routes.Group {
    static final int DELAYED_SHOWN = 100;
    private static final Logger LOG = LoggerFactory.getLogger(QueueEndpoints.class);
    private static final Duration LAST_HOUR = Duration.ofHours(1);

    private final InspectQueueUseCase inspect;
    private final CountCompletionsUseCase completions;
    private final ListDelayedJobsUseCase delayed;
    private final ListPartitionsUseCase partitions;
    private final ListQueuesUseCase inRedis;
    private final KnownQueues known;
    private final Supplier<Optional<OutboxBacklog>> outbox;
    /** The problems of damaged queues already logged: each is logged once, however often the overview polls. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    public QueueEndpoints(InspectQueueUseCase inspect, CountCompletionsUseCase completions,
                          ListDelayedJobsUseCase delayed, ListPartitionsUseCase partitions, ListQueuesUseCase inRedis,
                          KnownQueues known, Supplier<Optional<OutboxBacklog>> outbox) {
        this.inspect = inspect;
        this.completions = completions;
        this.delayed = delayed;
        this.partitions = partitions;
        this.inRedis = inRedis;
        this.known = known;
        this.outbox = outbox;
    }

    @Override
    public void addTo(Routes routes) {
        routes.get("/api/queues", request -> {
            QueueListing listing = inRedis.queues();
            Map<QueueName, Map<String, Object>> rows = new TreeMap<>(Comparator.comparing(QueueName::value));
            Set<QueueName> readable = new HashSet<>(known.all());
            readable.addAll(listing.names());
            readable.removeAll(listing.damaged().keySet());
            readable.forEach(queue -> rows.put(queue, readableReport(queue)));
            listing.damaged().forEach((queue, problem) -> rows.put(queue, damaged(queue, problem)));
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("queues", List.copyOf(rows.values()));
            body.put("outbox", outbox.get().map(Json::outbox).orElse(null));
            request.respond(200, body);
        });
        routes.get("/api/queues/{}", request -> {
            QueueReport report = existing(request.queue());
            Map<String, Object> body = report(report);
            body.put("delayed_jobs", delayed.listDelayed(new ListDelayedJobsUseCase.Command(request.queue(),
                    DELAYED_SHOWN)).stream().map(QueueEndpoints::delayedJob).toList());
            body.put("partitions", partitions.partitions(new ListPartitionsUseCase.Command(request.queue())).stream()
                    .map(QueueEndpoints::partition).toList());
            request.respond(200, body);
        });
    }

    /** The queue's report, or its problem when a key of it cannot be read (a known queue's too). */
    private Map<String, Object> readableReport(QueueName queue) {
        try {
            return report(inspect(queue));
        } catch (TransportException e) {
            return damaged(queue, e.getMessage());
        }
    }

    private Map<String, Object> damaged(QueueName queue, String problem) {
        if (warned.add(queue.value() + ": " + problem)) {
            LOG.warn("queue {} cannot be read, listed with its error: {}", queue, LogText.escaped(problem));
        }
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("queue", queue.value());
        json.put("error", problem);
        return json;
    }

    /**
     * The report of {@code queue} when it is known.
     *
     * @throws AdminHttpException 404 for a queue neither configured, consumed here nor held by Redis
     */
    QueueReport existing(QueueName queue) {
        QueueReport report = inspect(queue);
        if (!known.all().contains(queue) && isEmpty(report)) {
            throw AdminHttpException.notFound("unknown queue '" + queue.value() + "': neither configured nor in"
                    + " Redis");
        }
        return report;
    }

    private static boolean isEmpty(QueueReport report) {
        var stats = report.stats();
        return stats.length() == 0 && stats.pending() == 0 && stats.delayed() == 0 && stats.dead() == 0
                && stats.consumers().isEmpty() && !stats.paused();
    }

    private QueueReport inspect(QueueName queue) {
        return inspect.inspect(new InspectQueueUseCase.Command(queue));
    }

    private Map<String, Object> report(QueueReport report) {
        Map<String, Object> json = new LinkedHashMap<>(Json.queue(report));
        OptionalLong lastHour = completions.countCompleted(new CountCompletionsUseCase.Command(
                report.stats().queue(), LAST_HOUR));
        json.put("completed_last_hour", lastHour.isPresent() ? lastHour.getAsLong() : null);
        return json;
    }

    private static Map<String, Object> partition(PartitionStats partition) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("index", partition.index());
        json.put("length", partition.length());
        json.put("pending", partition.pending());
        return json;
    }

    private static Map<String, Object> delayedJob(JobSighting.Delayed delayed) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("job_id", delayed.job().id().value());
        json.put("due_at", delayed.dueAt().toString());
        json.put("attempt", delayed.job().attempt());
        json.put("last_error", delayed.job().lastError().map(Json::error).orElse(null));
        return json;
    }
}
