package dev.baton.bootstrap.cli;

import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.PurgeDeadLettersUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.json.Json;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code baton dlq list|show|replay|purge}: the dead letters of a queue. */
@Command(name = "dlq", mixinStandardHelpOptions = true, description = "Lists, shows, replays or purges dead letters.",
        subcommands = {DlqCommand.ListLetters.class, DlqCommand.Show.class, DlqCommand.Replay.class,
                DlqCommand.Purge.class})
final class DlqCommand implements Runnable {
    private static final int PAGE = 1000;
    private final Terminal terminal;

    @Inject
    DlqCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    public void run() {
        throw new UsageException("dlq needs a subcommand: list, show, replay or purge");
    }

    /** Reads every dead letter of {@code queue}, page by page, keeping those {@code selection} matches. */
    static List<StoredDeadLetter> all(Baton baton, QueueName queue, DeadLetterSelection selection) {
        ListDeadLettersUseCase list = baton.use(ListDeadLettersUseCase.class);
        List<StoredDeadLetter> letters = new ArrayList<>();
        Optional<DeadLetterId> after = Optional.empty();
        List<StoredDeadLetter> page;
        do {
            page = list.list(new ListDeadLettersUseCase.Command(queue, after, PAGE));
            page.stream().filter(selection::matches).forEach(letters::add);
            after = page.isEmpty() ? after : Optional.of(page.get(page.size() - 1).id());
        } while (page.size() == PAGE);
        return letters;
    }

    static DeadLetterReason reason(String text) {
        try {
            return DeadLetterReason.valueOf(text.toUpperCase(Locale.ROOT).replace('-', '_'));
        } catch (IllegalArgumentException e) {
            throw new UsageException("unknown reason '" + text + "'; reasons: " + String.join(", ",
                    Arrays.stream(DeadLetterReason.values()).map(r -> r.name().toLowerCase(Locale.ROOT)).toList()));
        }
    }

    /** Which dead letters a replay or purge acts on: exactly one of --id, --all, --reason. */
    static final class Selection {
        @Option(names = "--id", paramLabel = "ID", description = "a dead letter id (repeatable)")
        List<String> ids;

        @Option(names = "--all", description = "every dead letter of the queue")
        boolean all;

        @Option(names = "--reason", paramLabel = "REASON",
                description = "exhausted, non_retryable, malformed, poison or no_handler")
        String reason;

        DeadLetterSelection toSelection() {
            if (all) {
                return new DeadLetterSelection.All();
            }
            if (reason != null) {
                return new DeadLetterSelection.ByReason(reason(reason));
            }
            return new DeadLetterSelection.ByIds(ids.stream().map(DeadLetterId::of).toList());
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "Lists dead letters, oldest first.")
    static final class ListLetters extends SessionCommand {
        @Option(names = "--queue", required = true, paramLabel = "QUEUE")
        String queue;

        @Option(names = "--reason", paramLabel = "REASON", description = "only this reason")
        String reason;

        @Option(names = "--json", description = "print JSON")
        boolean json;

        @Inject
        ListLetters(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            DeadLetterSelection selection = reason == null ? new DeadLetterSelection.All()
                    : new DeadLetterSelection.ByReason(reason(reason));
            List<StoredDeadLetter> letters;
            try (Baton baton = batonBuilder().build()) {
                letters = all(baton, QueueName.of(queue), selection);
            }
            if (json) {
                terminal.out().println(Json.write(letters.stream().map(Json::deadLetter).toList()));
                return ExitCodes.OK;
            }
            Table table = new Table("ID", "JOB", "REASON", "ATTEMPTS", "DEAD-AT", "ERROR");
            for (StoredDeadLetter stored : letters) {
                table.row(stored.id(), stored.letter().jobId().orElse("-"), stored.letter().reason(),
                        stored.letter().attempts(), stored.letter().deadAt(),
                        abbreviate(stored.letter().lastError().message()));
            }
            table.print(terminal.out());
            terminal.out().println(letters.size() + " dead letters");
            return ExitCodes.OK;
        }

        private static String abbreviate(String text) {
            String line = text.replace('\n', ' ');
            return line.length() <= 80 ? line : line.substring(0, 79) + "…";
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true, description = "Shows one dead letter in full (JSON).")
    static final class Show extends SessionCommand {
        @Option(names = "--queue", required = true, paramLabel = "QUEUE")
        String queue;

        @Option(names = "--id", required = true, paramLabel = "ID", description = "the dead letter id")
        String id;

        @Option(names = "--json", description = "print JSON (the default for show)")
        boolean json;

        @Inject
        Show(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            List<StoredDeadLetter> letters;
            try (Baton baton = batonBuilder().build()) {
                letters = all(baton, QueueName.of(queue), new DeadLetterSelection.ByIds(List.of(DeadLetterId.of(id))));
            }
            if (letters.isEmpty()) {
                throw new UsageException("no dead letter " + id + " in queue " + queue);
            }
            terminal.out().println(Json.write(Json.deadLetter(letters.get(0))));
            return ExitCodes.OK;
        }
    }

    @Command(name = "replay", mixinStandardHelpOptions = true,
            description = "Moves dead letters back to their queue with their attempts reset.")
    static final class Replay extends SessionCommand {
        @Option(names = "--queue", required = true, paramLabel = "QUEUE")
        String queue;

        @ArgGroup(exclusive = true, multiplicity = "1")
        Selection selection;

        @Inject
        Replay(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            int moved;
            try (Baton baton = batonBuilder().build()) {
                moved = baton.use(RedriveDeadLettersUseCase.class)
                        .redrive(new RedriveDeadLettersUseCase.Command(QueueName.of(queue), selection.toSelection()));
            }
            terminal.out().println("replayed " + moved + " dead letters to " + queue);
            return ExitCodes.OK;
        }
    }

    @Command(name = "purge", mixinStandardHelpOptions = true, description = "Deletes dead letters for good.")
    static final class Purge extends SessionCommand {
        @Option(names = "--queue", required = true, paramLabel = "QUEUE")
        String queue;

        @ArgGroup(exclusive = true, multiplicity = "1")
        Selection selection;

        @Inject
        Purge(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            int deleted;
            try (Baton baton = batonBuilder().build()) {
                deleted = baton.use(PurgeDeadLettersUseCase.class)
                        .purge(new PurgeDeadLettersUseCase.Command(QueueName.of(queue), selection.toSelection()));
            }
            terminal.out().println("purged " + deleted + " dead letters of " + queue);
            return ExitCodes.OK;
        }
    }
}
