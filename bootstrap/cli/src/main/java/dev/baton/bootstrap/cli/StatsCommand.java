package dev.baton.bootstrap.cli;

import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.InspectQueueUseCase.QueueReport;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.Durations;
import dev.baton.bootstrap.json.Json;
import dev.baton.domain.ConsumerStats;
import dev.baton.domain.OutboxBacklog;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code baton stats}: the numbers of each queue, once, as JSON, or refreshed until Ctrl-C. */
@Command(name = "stats", mixinStandardHelpOptions = true,
        description = {"Shows the numbers of queues.",
                "Stream length, lag (not yet delivered), pending (delivered, not acknowledged), oldest pending idle, "
                + "consumers and their idle, delayed (retries and scheduled), dead, suspects (reclaimed jobs that "
                + "ran alone in their worker and have not finished) and their isolated deliveries, completed (in "
                + "the ledger), paused (workers lease nothing from it); with a ledger, the outbox: rows waiting for a "
                + "relay, the oldest one's wait, malformed rows. "
                + "Queues: --queue, else BATON_QUEUES."})
final class StatsCommand extends SessionCommand {
    @Option(names = "--queue", paramLabel = "QUEUE", description = "a queue to show (repeatable)")
    List<String> queue = new ArrayList<>();

    @Option(names = "--json", description = "print JSON (the shape of /api/queues)")
    boolean json;

    @Option(names = "--watch", description = "refresh every --interval until Ctrl-C")
    boolean watch;

    @Option(names = "--interval", paramLabel = "DURATION", defaultValue = "2s", description = "refresh interval (2s)")
    String interval;

    @Inject
    StatsCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() throws InterruptedException {
        List<QueueName> names = queue.isEmpty() ? config().queues() : queues(queue);
        if (names.isEmpty()) {
            throw new UsageException("name the queues: --queue Q (repeatable) or BATON_QUEUES=q1,q2");
        }
        long every = Durations.parse(interval).toMillis();
        try (Baton baton = batonBuilder().build()) {
            InspectQueueUseCase inspect = baton.use(InspectQueueUseCase.class);
            do {
                List<QueueReport> reports = names.stream()
                        .map(name -> inspect.inspect(new InspectQueueUseCase.Command(name))).toList();
                if (watch && terminal.interactive()) {
                    terminal.out().print("\033[H\033[2J");
                }
                Optional<OutboxBacklog> outbox = baton.outboxBacklog();
                if (json) {
                    terminal.out().println(Json.write(Json.queues(reports, outbox)));
                } else {
                    print(reports);
                    outbox.ifPresent(this::print);
                }
                if (watch) {
                    Thread.sleep(every);
                }
            } while (watch);
        }
        return ExitCodes.OK;
    }

    /** The ledger's dead letters by reason, when there are any: the count that survives Redis losing its own. */
    private void printDeadInLedger(List<QueueReport> reports) {
        if (reports.stream().allMatch(report -> report.deadByReason().isEmpty())) {
            return;
        }
        terminal.out().println();
        Table dead = new Table("QUEUE", "DEAD-IN-LEDGER", "REASON");
        for (QueueReport report : reports) {
            new TreeMap<>(report.deadByReason()).forEach((reason, count) ->
                    dead.row(report.stats().queue(), count, reason.name()));
        }
        dead.print(terminal.out());
    }

    /** The outbox of every queue together: its rows name their queue only once a relay read them. */
    private void print(OutboxBacklog outbox) {
        terminal.out().println();
        Table table = new Table("OUTBOX-WAITING", "OLDEST-WAITING", "MALFORMED");
        table.row(outbox.waiting(), Table.duration(outbox.oldestWaiting()), outbox.malformed());
        table.print(terminal.out());
    }

    private void print(List<QueueReport> reports) {
        Table table = new Table("QUEUE", "LENGTH", "LAG", "PENDING", "OLDEST-PENDING", "DELAYED", "DEAD",
                "SUSPECTS", "ISOLATED", "COMPLETED", "CONSUMERS", "PAUSED");
        for (QueueReport report : reports) {
            QueueStats stats = report.stats();
            table.row(stats.queue(), stats.length(), stats.lag().isPresent() ? stats.lag().getAsLong() : "?",
                    stats.pending(), Table.duration(stats.oldestPendingIdle()), stats.delayed(), stats.dead(),
                    stats.suspects(), stats.isolatedDeliveries(),
                    report.completed().isPresent() ? report.completed().getAsLong() : "-",
                    stats.consumers().size(), stats.paused() ? "yes" : "no");
        }
        table.print(terminal.out());
        printDeadInLedger(reports);
        for (QueueReport report : reports) {
            if (!report.stats().consumers().isEmpty()) {
                terminal.out().println();
                Table consumers = new Table("QUEUE", "CONSUMER", "PENDING", "IDLE");
                for (ConsumerStats consumer : report.stats().consumers()) {
                    consumers.row(report.stats().queue(), consumer.name(), consumer.pending(),
                            Table.duration(consumer.idle()));
                }
                consumers.print(terminal.out());
            }
        }
    }
}
