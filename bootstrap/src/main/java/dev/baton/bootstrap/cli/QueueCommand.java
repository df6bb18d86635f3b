package dev.baton.bootstrap.cli;

import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.bootstrap.Baton;
import dev.baton.domain.QueueName;
import java.util.function.ToIntFunction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton queue declare|show|repartition}: the partition count of a queue (docs/SCALING.md). */
@Command(name = "queue", mixinStandardHelpOptions = true,
        description = "Declares, shows or changes the partition count of a queue.",
        subcommands = {QueueCommand.Declare.class, QueueCommand.Show.class, QueueCommand.Repartition.class})
final class QueueCommand implements Runnable {

    @Override
    public void run() {
        throw new UsageException("queue needs a subcommand: declare, show or repartition");
    }

    /** Runs {@code action} on the Redis adapter and prints the queue's partition count it returns. */
    private static Integer report(SessionCommand command, String queue, ToIntFunction<RedisAdapter> action) {
        int partitions;
        try (Baton baton = command.batonBuilder().build()) {
            partitions = action.applyAsInt(baton.use(RedisAdapter.class));
        }
        command.terminal.out().println(queue + ": " + partitions + " partitions");
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

        Show(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            QueueName name = QueueName.of(queue);
            return report(this, queue, redis -> redis.partitions(name));
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
