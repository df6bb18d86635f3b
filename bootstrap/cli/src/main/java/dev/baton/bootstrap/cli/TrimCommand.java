package dev.baton.bootstrap.cli;

import dev.baton.application.port.in.TrimQueueUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.Durations;
import dev.baton.bootstrap.config.Setting;
import dev.baton.domain.QueueName;
import jakarta.inject.Inject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code baton trim}: removes acknowledged history older than the retention now (workers trim on a schedule). */
@Command(name = "trim", mixinStandardHelpOptions = true,
        description = {"Trims a queue's acknowledged history now.",
                "Removes entries older than BATON_RETENTION, never pending or undelivered work. Workers also trim "
                + "on a schedule."})
final class TrimCommand extends SessionCommand {
    @Option(names = "--queue", required = true, paramLabel = "QUEUE")
    String queue;

    @Inject
    TrimCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() {
        TrimQueueUseCase.TrimReport report;
        try (Baton baton = batonBuilder().build()) {
            report = baton.use(TrimQueueUseCase.class).trim(new TrimQueueUseCase.Command(QueueName.of(queue)));
        }
        terminal.out().println("trimmed " + report.removed() + " entries older than "
                + Durations.format(config().get(Setting.RETENTION)) + " from " + queue
                + (report.heldBack() ? "; held back by pending or undelivered work" : ""));
        return ExitCodes.OK;
    }
}
