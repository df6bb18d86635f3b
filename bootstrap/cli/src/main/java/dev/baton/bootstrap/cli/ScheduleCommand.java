package dev.baton.bootstrap.cli;

import dev.baton.application.port.in.ListSchedulesUseCase;
import dev.baton.application.port.in.ListSchedulesUseCase.ScheduleView;
import dev.baton.bootstrap.Baton;
import jakarta.inject.Inject;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code baton schedule list}: the schedules of a schedules file, their next fire times and last fire. */
@Command(name = "schedule", mixinStandardHelpOptions = true, description = "Shows periodic jobs (schedules).",
        subcommands = ScheduleCommand.ListCommand.class)
final class ScheduleCommand implements Runnable {

    @Override
    public void run() {
        throw new UsageException("schedule needs a subcommand: list");
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = {"Lists the schedules of a schedules file: when each fires next, and its last fire as the "
                    + "schedulers recorded it in Redis.", "A bad line of the file is a usage error (exit 2)."})
    static final class ListCommand extends SessionCommand {
        @Mixin
        SchedulesOption schedules;

        @Option(names = "--next", paramLabel = "N", defaultValue = "3", description = "next fire times shown (1..100)")
        int next;

        @Inject
        ListCommand(Terminal terminal) {
            super(terminal);
        }

        @Override
        public Integer call() {
            Path file = schedules.file(terminal).orElseThrow(() -> new UsageException(
                    "schedule list needs --schedules FILE (or " + SchedulesOption.ENV + ")"));
            Table table = new Table("SCHEDULE", "WHEN", "QUEUE", "NEXT", "LAST FIRE");
            try (Baton baton = batonBuilder().schedulesFile(file).build()) {
                List<ScheduleView> views = baton.use(ListSchedulesUseCase.class)
                        .list(new ListSchedulesUseCase.Command(baton.schedules(), next));
                views.forEach(view -> table.row(view.schedule().name(), view.schedule().when(),
                        view.schedule().queue(), view.nextFires().stream().map(Instant::toString)
                                .collect(Collectors.joining(", ")),
                        view.state().lastFire().map(Instant::toString).orElse("never")));
            }
            table.print(terminal.out());
            return ExitCodes.OK;
        }
    }
}
