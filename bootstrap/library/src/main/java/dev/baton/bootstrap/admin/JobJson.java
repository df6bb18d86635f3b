package dev.baton.bootstrap.admin;

import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.bootstrap.json.Excerpt;
import dev.baton.bootstrap.json.Json;
import dev.baton.domain.Completion;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterRecord;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.JobSighting;
import dev.baton.domain.OutcomeState;
import dev.baton.domain.QueueName;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The admin API's JSON of one job's whereabouts and of a ledger outcome (docs/OPERATIONS.md#the-admin-http-server). */
final class JobJson {
    private JobJson() {
    }

    static Map<String, Object> of(QueueName queue, JobId id, Whereabouts whereabouts) {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("job_id", id.value());
        json.put("queue", queue.value());
        if (whereabouts instanceof Whereabouts.Completed completed) {
            Completion completion = completed.completion();
            fill(json, "completed", completion.attempt(), null, completion.result().orElse(null), null,
                    completion.completedAt().toString(), completion.consumer().value(), false);
        } else if (whereabouts instanceof Whereabouts.DeadLettered dead
                && dead.outcome() instanceof JobOutcome.Cancelled cancelled) {
            fill(json, OutcomeState.CANCELLED.label(), 0, null, null, null, cancelled.cancelledAt().toString(), null,
                    dead.sighting().isPresent());
        } else if (whereabouts instanceof Whereabouts.DeadLettered dead) {
            DeadLetterRecord record = dead.outcome().deadLetterRecord().orElseThrow();
            fill(json, OutcomeState.of(dead.outcome()).label(), record.attempts(), error(record.error()), null,
                    dead.sighting().flatMap(JobJson::job).map(job -> job.enqueuedAt().toString()).orElse(null),
                    record.deadAt().toString(), record.consumer().value(), dead.sighting().isPresent());
            json.put("reason", record.reason().name());
            json.put("changed_at", dead.outcome().at().toString());
        } else if (whereabouts instanceof Whereabouts.InTransport inTransport) {
            inTransport(json, inTransport.sighting());
        }
        return json;
    }

    private static void inTransport(Map<String, Object> json, JobSighting sighting) {
        if (sighting instanceof JobSighting.Dead dead) {
            DeadLetter letter = dead.deadLetter().letter();
            fill(json, "dead", letter.attempts(), error(letter.lastError()), null,
                    letter.job().map(job -> job.enqueuedAt().toString()).orElse(null), letter.deadAt().toString(),
                    null, true);
            json.put("reason", letter.reason().name());
            json.put("dead_letter_id", dead.deadLetter().id().value());
            return;
        }
        Job job = job(sighting).orElseThrow();
        String consumer = sighting instanceof JobSighting.Pending pending ? pending.consumer() : null;
        String state = sighting instanceof JobSighting.Pending ? "running"
                : sighting instanceof JobSighting.Delayed ? "delayed" : "waiting";
        fill(json, state, job.attempt(), job.lastError().map(JobJson::error).orElse(null), null,
                job.enqueuedAt().toString(), null, consumer, true);
        if (sighting instanceof JobSighting.Delayed delayed) {
            json.put("due_at", delayed.dueAt().toString());
        }
        if (sighting instanceof JobSighting.Pending pending) {
            json.put("deliveries", pending.deliveries());
            json.put("idle_ms", pending.idle().toMillis());
        }
    }

    private static void fill(Map<String, Object> json, String state, int attempts, Map<String, Object> error,
                             String result, String enqueuedAt, String finishedAt, String consumer, boolean inRedis) {
        json.put("state", state);
        json.put("attempts", attempts);
        json.put("error", error);
        json.put("result", result);
        json.put("enqueued_at", enqueuedAt);
        json.put("finished_at", finishedAt);
        json.put("consumer", consumer);
        json.put("in_redis", inRedis);
    }

    /** One row of the ledger search: its error message cut as in any list (the job's own JSON has it whole). */
    static Map<String, Object> outcome(JobOutcome outcome) {
        Optional<DeadLetterRecord> record = outcome.deadLetterRecord();
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("job_id", outcome.key());
        json.put("state", OutcomeState.of(outcome).label());
        json.put("reason", record.map(dead -> dead.reason().name()).orElse(null));
        json.put("error_type", record.map(dead -> dead.error().type()).orElse(null));
        Excerpt.put(json, "error_message", record.map(dead -> dead.error().message()).orElse(null),
                Excerpt.LIST.errorChars());
        json.put("attempts", outcome instanceof JobOutcome.Completed completed ? completed.completion().attempt()
                : record.map(DeadLetterRecord::attempts).orElse(0));
        json.put("at", outcome.at().toString());
        return json;
    }

    private static Optional<Job> job(JobSighting sighting) {
        if (sighting instanceof JobSighting.Waiting waiting) {
            return Optional.of(waiting.job());
        }
        if (sighting instanceof JobSighting.Pending pending) {
            return Optional.of(pending.job());
        }
        if (sighting instanceof JobSighting.Delayed delayed) {
            return Optional.of(delayed.job());
        }
        return ((JobSighting.Dead) sighting).deadLetter().letter().job();
    }

    private static Map<String, Object> error(JobError error) {
        return Json.error(error);
    }
}
