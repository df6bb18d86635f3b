package dev.baton.bootstrap.cli;

import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.json.Json;
import dev.baton.domain.Completion;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton job ID}: where a job is now. */
@Command(name = "job", mixinStandardHelpOptions = true,
        description = {"Tells where a job is now.",
                "Completed (result, when, by whom), waiting, pending (consumer, idle, deliveries), delayed (until "
                + "when, attempt, last error), dead (reason, error), replayed, purged or unknown.",
                "With a ledger, its record comes first: a dead, replayed or purged job is reported even when "
                + "Redis lost it."})
final class JobCommand extends SessionCommand {
    @Parameters(index = "0", paramLabel = "ID", description = "the job id")
    String id;

    @Option(names = "--queue", required = true, paramLabel = "QUEUE")
    String queue;

    @Option(names = "--json", description = "print JSON")
    boolean json;

    @Inject
    JobCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() {
        Whereabouts whereabouts;
        try (Baton baton = batonBuilder().build()) {
            whereabouts = baton.use(LocateJobUseCase.class)
                    .locate(new LocateJobUseCase.Command(QueueName.of(queue), JobId.of(id)));
        }
        Map<String, Object> report = report(whereabouts);
        if (json) {
            terminal.out().println(Json.write(report));
        } else {
            report.forEach((key, value) -> terminal.out().println(key + ": " + value));
        }
        return ExitCodes.OK;
    }

    private Map<String, Object> report(Whereabouts whereabouts) {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("job", id);
        report.put("queue", queue);
        if (whereabouts instanceof Whereabouts.Completed completed) {
            completed(report, completed.completion());
        } else if (whereabouts instanceof Whereabouts.DeadLettered deadLettered) {
            deadLettered(report, deadLettered.outcome());
            deadLettered.sighting().ifPresent(sighting -> report.put("in_redis", sightingName(sighting)));
        } else if (whereabouts instanceof Whereabouts.InTransport inTransport) {
            sighting(report, inTransport.sighting());
        } else {
            report.put("state", "unknown (never enqueued, or completed and forgotten after the retention, "
                    + "or completed without a ledger)");
        }
        return report;
    }

    private static void completed(Map<String, Object> report, Completion completion) {
        report.put("state", "completed");
        report.put("completed_at", completion.completedAt().toString());
        report.put("consumer", completion.consumer().value());
        report.put("attempt", completion.attempt());
        report.put("result", completion.result().orElse(""));
    }

    /** The ledger's record of a job that did not complete: cancelled, or dead, replayed or purged with why it died. */
    private static void deadLettered(Map<String, Object> report, JobOutcome outcome) {
        DeadLetterRecord record;
        if (outcome instanceof JobOutcome.Cancelled cancelled) {
            report.put("state", "cancelled (it never runs)");
            report.put("cancelled_at", cancelled.cancelledAt().toString());
            return;
        }
        if (outcome instanceof JobOutcome.Replayed replayed) {
            report.put("state", "replayed (its dead letter was redriven: it runs again)");
            report.put("replayed_at", replayed.replayedAt().toString());
            record = replayed.record();
        } else if (outcome instanceof JobOutcome.Purged purged) {
            report.put("state", "purged (its dead letter was deleted: it never runs again)");
            report.put("purged_at", purged.purgedAt().toString());
            record = purged.record();
        } else {
            report.put("state", "dead");
            record = ((JobOutcome.Dead) outcome).record();
        }
        report.put("reason", record.reason().name());
        report.put("error", record.error().type() + ": " + record.error().message());
        report.put("attempts", record.attempts());
        report.put("dead_at", record.deadAt().toString());
        report.put("consumer", record.consumer().value());
    }

    private static String sightingName(JobSighting sighting) {
        if (sighting instanceof JobSighting.Dead dead) {
            return "dead letter " + dead.deadLetter().id().value();
        }
        return sighting instanceof JobSighting.Pending ? "pending" : sighting instanceof JobSighting.Delayed
                ? "delayed" : "waiting";
    }

    private static void sighting(Map<String, Object> report, JobSighting sighting) {
        if (sighting instanceof JobSighting.Waiting waiting) {
            report.put("state", "waiting (in the stream, not yet delivered)");
            report.put("message_id", waiting.messageId());
            job(report, waiting.job());
        } else if (sighting instanceof JobSighting.Pending pending) {
            report.put("state", "pending (delivered, running or awaiting recovery)");
            report.put("message_id", pending.messageId());
            report.put("consumer", pending.consumer());
            report.put("idle", Table.duration(pending.idle()));
            report.put("deliveries", pending.deliveries());
            job(report, pending.job());
        } else if (sighting instanceof JobSighting.Delayed delayed) {
            report.put("state", "delayed");
            report.put("due_at", delayed.dueAt().toString());
            job(report, delayed.job());
        } else if (sighting instanceof JobSighting.Dead dead) {
            DeadLetter letter = dead.deadLetter().letter();
            report.put("state", "dead");
            report.put("dead_letter_id", dead.deadLetter().id().value());
            report.put("reason", letter.reason().name());
            report.put("error", letter.lastError().type() + ": " + letter.lastError().message());
            report.put("attempts", letter.attempts());
            report.put("dead_at", letter.deadAt().toString());
        }
    }

    private static void job(Map<String, Object> report, Job job) {
        report.put("attempt", job.attempt());
        report.put("last_error", job.lastError().map(e -> e.type() + ": " + e.message()).orElse(""));
        report.put("enqueued_at", job.enqueuedAt().toString());
    }
}
