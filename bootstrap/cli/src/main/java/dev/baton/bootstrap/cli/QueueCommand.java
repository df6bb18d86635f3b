package dev.baton.bootstrap.cli;

import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.bootstrap.Baton;
import dev.baton.domain.QueueName;
import jakarta.inject.Inject;
import java.util.function.BiConsumer;
import java.util.function.ToIntFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code baton queue declare|show|repartition}: the partition count of a queue (docs/SCALING.md); {@code baton queue
 * pause|resume}: whether workers lease from it (docs/OPERATIONS.md).
 */
@Command(name = "queue", mixinStandardHelpOptions = true,
        description = "Declares, shows or changes the partition count of a queue; pauses or resumes it.",
        subcommands = {QueueCommand.Declare.class, QueueCommand.Show.class, QueueCommand.Repartition.class,
                QueueCommand.Pause.class, QueueCommand.Resume.class})
final class QueueCommand implements Runnable {

    @Override
    public void run() {
        throw new UsageException("queue needs a subcommand: declare, show, repartition, pause or resume");
    }

    /** Runs {@code action} on the Redis adapter and prints the queue's partition count it returns, and its pause. */
    private static Integer report(SessionCommand command, String queue, ToIntFunction<RedisAdapter> action) {
        int partitions;
        boolean paused;
        try (Baton baton = command.batonBuilder().build()) {
            RedisAdapter redis = baton.use(RedisAdapter.class);
            partitions = action.applyAsInt(redis);
            paused = redis.administration().stats(QueueName.of(queue)).paused();
        }
        command.terminal.out().println(queue + ": " + partitions + " partitions" + (paused ? ", paused" : ""));
        return ExitCodes.OK;
    }

    /** Pauses or resumes the queue, then says so. */
    private static Integer change(SessionCommand command, String queue, BiConsumer<Baton, QueueName> change,
                                  String outcome) {
        try (Baton baton = command.batonBuilder().build()) {
            change.accept(baton, QueueName.of(queue));
        }
        command.terminal.out().println(queue + ": " + outcome);
        return ExitCodes.OK;
    }

    @Command(name = "declare", mixinStandardHelpOptions = true,
            description = {"Records a queue's partition count (the first declaration wins) and creates its groups.",
                    "A queue recorded with another count fails with exit 2; `queue repartition` changes it."})
    static final class Declare extends SessionCommand {
        @Parameters(index = "0", paramLabel = "QUEUE")
        String queue;

        @Option(names = "--partitions", required = true, paramLabel = "P", description = "1..1024")
        int partitions;

        @Inject
        Declare(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            QueueName name = QueueName.of(queue);
            return report(this, queue, redis -> {
                redis.declarePartitions(name, partitions);
                return redis.partitions(name);
            });
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = "Shows a queue's recorded partition count (1 when none is recorded).")
    static final class Show extends SessionCommand {
        @Parameters(index = "0", paramLabel = "QUEUE")
        String queue;

        @Inject
        Show(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            QueueName name = QueueName.of(queue);
            return report(this, queue, redis -> redis.partitions(name));
        }
    }

    @Command(name = "pause", mixinStandardHelpOptions = true,
            description = {"Pauses a queue: every worker stops leasing from it within a second.",
                    "Running jobs finish, enqueues go on, delayed jobs are promoted but wait; the pause is kept in "
                    + "Redis, across worker restarts, until `queue resume`."})
    static final class Pause extends SessionCommand {
        @Parameters(index = "0", paramLabel = "QUEUE")
        String queue;

        @Inject
        Pause(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            return change(this, queue, Baton::pause, "paused (workers lease nothing from it until `baton queue resume "
                    + queue + "`)");
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = "Resumes a paused queue: workers lease from it again within a second.")
    static final class Resume extends SessionCommand {
        @Parameters(index = "0", paramLabel = "QUEUE")
        String queue;

        @Inject
        Resume(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            return change(this, queue, Baton::resume, "resumed");
        }
    }

    @Command(name = "repartition", mixinStandardHelpOptions = true,
            description = {"Changes the partition count of a drained queue.",
                    "Stop its producers and workers first. A queue still holding work (undelivered, pending, delayed "
                    + "or dead) is refused with exit 2."})
    static final class Repartition extends SessionCommand {
        @Parameters(index = "0", paramLabel = "QUEUE")
        String queue;

        @Option(names = "--partitions", required = true, paramLabel = "P", description = "1..1024")
        int partitions;

        @Inject
        Repartition(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            QueueName name = QueueName.of(queue);
            return report(this, queue, redis -> {
                redis.repartition(name, partitions);
                return redis.partitions(name);
            });
        }
    }
}
