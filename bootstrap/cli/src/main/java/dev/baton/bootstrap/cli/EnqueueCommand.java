package dev.baton.bootstrap.cli;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueUniqueJobUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.Durations;
import dev.baton.bootstrap.json.JsonCodec;
import dev.baton.bootstrap.json.JsonException;
import dev.baton.domain.BatonException;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.Uniqueness;
import jakarta.inject.Inject;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code baton enqueue}: one job from flags, or many from a JSON-lines file. A file is validated completely before
 * the first job is sent, so a bad line (reported with its number, exit 2) enqueues nothing.
 */
@Command(name = "enqueue", mixinStandardHelpOptions = true,
        description = {"Enqueues one job, or many from a JSON-lines file.",
                "One job: --job-id and --payload. Many: --file, one JSON object per line, {\"job_id\": \"…\", "
                + "\"payload\": text or any JSON value, \"type\": \"…\"} ('-' reads stdin). A file is checked "
                + "completely first: a bad line enqueues nothing (exit 2)."})
final class EnqueueCommand extends SessionCommand {
    static final int BATCH = 500;
    private static final Set<String> LINE_FIELDS = Set.of("job_id", "payload", "type");

    @Option(names = "--queue", required = true, paramLabel = "QUEUE")
    String queue;

    @ArgGroup(exclusive = true, multiplicity = "1")
    Source source;

    @Mixin
    PartitionsOption partitions;

    static final class Source {
        @ArgGroup(exclusive = false)
        Single single;

        @Option(names = "--file", paramLabel = "FILE", description = "JSON lines to enqueue; '-' reads stdin")
        String file;
    }

    static final class Single {
        @Option(names = "--job-id", required = true, paramLabel = "ID", description = "the job's idempotency key")
        String jobId;

        @Option(names = "--payload", required = true, paramLabel = "TEXT")
        String payload;

        @Option(names = "--type", paramLabel = "TYPE", description = "selects the handler by name")
        String type;

        @Option(names = "--delay", paramLabel = "DURATION", description = "due after this delay, e.g. 30s")
        String delay;

        @Option(names = "--at", paramLabel = "ISO-8601", description = "due at this instant, e.g. 2030-01-01T09:00:00Z")
        String at;

        @Option(names = "--unique", paramLabel = "KEY", description = "enqueue nothing while a job with this "
                + "uniqueness key is waiting, delayed or running on the queue; prints that job's id")
        String unique;

        @Option(names = "--unique-for", paramLabel = "DURATION", description = "with --unique: the key also holds "
                + "for this long after its job completed, e.g. 1h")
        String uniqueFor;
    }

    @Inject
    EnqueueCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() {
        QueueName queueName = QueueName.of(queue);
        if (partitions.given()) {
            try (Baton baton = batonBuilder().build()) {
                partitions.declare(baton, List.of(queueName));
            }
        }
        if (source.single != null) {
            EnqueueJobUseCase.Command command = single(queueName, source.single);
            Optional<Uniqueness> uniqueness = uniqueness(source.single);
            try (Baton baton = batonBuilder().build()) {
                if (uniqueness.isEmpty()) {
                    printEnqueued(baton.enqueue(command), queueName);
                } else {
                    printUnique(baton.enqueueUnique(command, uniqueness.get()), uniqueness.get(), queueName);
                }
            }
            return ExitCodes.OK;
        }
        List<EnqueueJobUseCase.Command> jobs = readLines(queueName, source.file);
        if (jobs.isEmpty()) {
            throw new UsageException(source.file + " holds no jobs");
        }
        int sent = 0;
        Progress progress = new Progress(terminal, "enqueue", jobs.size());
        try (Baton baton = batonBuilder().build()) {
            for (int from = 0; from < jobs.size(); from += BATCH) {
                List<EnqueueJobUseCase.Command> batch = jobs.subList(from, Math.min(jobs.size(), from + BATCH));
                baton.enqueueAll(batch);
                sent += batch.size();
                progress.update(sent);
            }
        } catch (BatonException e) {
            progress.finish();
            throw new BatonException("enqueued " + sent + " of " + jobs.size() + " jobs, then failed: "
                    + e.getMessage() + " (enqueuing the file again is safe: job ids are idempotency keys)", e);
        }
        progress.finish();
        terminal.out().println("enqueued " + sent + " jobs on " + queueName);
        return ExitCodes.OK;
    }

    private void printEnqueued(Job job, QueueName queueName) {
        terminal.out().println("enqueued " + job.id() + " on " + queueName
                + job.notBefore().map(due -> " (due " + due + ")").orElse(" (due now)"));
    }

    /** Prints the id of the job holding the key: the new one, or the one that was already there (still exit 0). */
    private void printUnique(EnqueueUniqueJobUseCase.Outcome outcome, Uniqueness uniqueness, QueueName queueName) {
        if (outcome instanceof EnqueueUniqueJobUseCase.Outcome.Enqueued enqueued) {
            printEnqueued(enqueued.job(), queueName);
        } else {
            terminal.out().println("job " + outcome.jobId() + " holds unique key " + uniqueness.key() + " on "
                    + queueName + ": nothing enqueued");
        }
    }

    private static Optional<Uniqueness> uniqueness(Single single) {
        if (single.unique == null) {
            if (single.uniqueFor != null) {
                throw new UsageException("--unique-for needs --unique");
            }
            return Optional.empty();
        }
        Uniqueness uniqueness = Uniqueness.of(single.unique);
        return single.uniqueFor == null ? Optional.of(uniqueness)
                : Optional.of(uniqueness.andFor(duration("--unique-for", single.uniqueFor)));
    }

    private static Duration duration(String option, String value) {
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new UsageException("invalid " + option + " '" + value + "': " + e.getMessage());
        }
    }

    private static EnqueueJobUseCase.Command single(QueueName queue, Single single) {
        EnqueueJobUseCase.Command command = EnqueueJobUseCase.Command.now(queue, JobId.of(single.jobId),
                single.payload);
        if (single.type != null) {
            command = command.withType(single.type);
        }
        if (single.delay != null && single.at != null) {
            throw new UsageException("give --delay or --at, not both");
        }
        if (single.delay != null) {
            command = command.after(duration("--delay", single.delay));
        }
        if (single.at != null) {
            try {
                command = command.at(Instant.parse(single.at));
            } catch (DateTimeParseException e) {
                throw new UsageException("invalid --at '" + single.at
                        + "': expected ISO-8601 like 2030-01-01T09:00:00Z");
            }
        }
        return command;
    }

    private List<EnqueueJobUseCase.Command> readLines(QueueName queue, String file) {
        List<EnqueueJobUseCase.Command> jobs = new ArrayList<>();
        try (BufferedReader reader = "-".equals(file)
                ? new BufferedReader(new InputStreamReader(terminal.in(), StandardCharsets.UTF_8))
                : Files.newBufferedReader(Path.of(file), StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    jobs.add(parseLine(queue, line));
                } catch (BatonException | IllegalArgumentException e) {
                    throw new UsageException(("-".equals(file) ? "stdin" : file) + " line " + number + ": "
                            + e.getMessage() + "; nothing was enqueued");
                }
            }
        } catch (IOException e) {
            throw new UsageException("cannot read " + file + ": " + e.getMessage());
        }
        return jobs;
    }

    static EnqueueJobUseCase.Command parseLine(QueueName queue, String line) {
        JsonCodec codec = JsonCodec.onClasspath();
        Object json;
        try {
            json = codec.parse(line);
        } catch (JsonException e) {
            throw new IllegalArgumentException("not JSON (" + e.getMessage() + ")");
        }
        if (!(json instanceof Map<?, ?> fields)) {
            throw new IllegalArgumentException("expected a JSON object {\"job_id\": …, \"payload\": …}");
        }
        for (Object name : fields.keySet()) {
            if (!LINE_FIELDS.contains(name)) {
                throw new IllegalArgumentException("unknown field '" + name + "' (known: job_id, payload, type)");
            }
        }
        if (!(fields.get("job_id") instanceof String id)) {
            throw new IllegalArgumentException("job_id is required and must be a string");
        }
        Object payload = fields.get("payload");
        if (payload == null) {
            throw new IllegalArgumentException("payload is required");
        }
        String payloadText = payload instanceof String text ? text : codec.write(payload);
        EnqueueJobUseCase.Command command = new EnqueueJobUseCase.Command(queue, JobId.of(id),
                Optional.empty(), payloadText, Map.of(), Optional.empty(), Optional.empty());
        Object type = fields.get("type");
        if (type != null) {
            if (!(type instanceof String name)) {
                throw new IllegalArgumentException("type must be a string");
            }
            command = command.withType(name);
        }
        return command;
    }
}
