package dev.baton.bootstrap.cli;

import dev.baton.application.port.in.CancelJobUseCase.Answer;
import dev.baton.bootstrap.Baton;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import jakarta.inject.Inject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code baton cancel JOB_ID --queue Q}: cancels a job (docs/OPERATIONS.md). */
@Command(name = "cancel", mixinStandardHelpOptions = true,
        description = {"Cancels a job: a waiting or delayed job never runs; a running one's handler sees "
                + "context.cancelled() within a second and is interrupted after BATON_CANCEL_GRACE, its writes "
                + "rolled back.",
                "Exit 0 when cancelled (or cancelled before), 3 when the job completed, died or was purged first."})
final class CancelCommand extends SessionCommand {
    @Parameters(index = "0", paramLabel = "JOB_ID")
    String jobId;

    @Option(names = "--queue", required = true, paramLabel = "QUEUE", description = "the job's queue")
    String queue;

    @Inject
    CancelCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() {
        QueueName name = QueueName.of(queue);
        JobId id = JobId.of(jobId);
        Answer answer;
        try (Baton baton = batonBuilder().build()) {
            answer = baton.cancel(name, id);
        }
        terminal.out().println(jobId + ": " + describe(answer));
        return answer.isOtherwiseTerminal() ? ExitCodes.ALREADY_TERMINAL : ExitCodes.OK;
    }

    private String describe(Answer answer) {
        return switch (answer) {
            case CANCELLED -> "cancelled (it will not run; if it runs now, its handler is told and its writes roll "
                    + "back; a job enqueued with this id later is cancelled too)";
            case ALREADY_CANCELLED -> "already cancelled";
            case ALREADY_COMPLETED -> "already completed (its effect stays committed)";
            case ALREADY_DEAD -> "already dead (in the dead letters of " + queue + ")";
            case ALREADY_PURGED -> "already purged (its dead letter was deleted: it never runs again)";
        };
    }
}
