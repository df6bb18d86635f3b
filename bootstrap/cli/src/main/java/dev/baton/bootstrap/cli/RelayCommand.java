package dev.baton.bootstrap.cli;

import static dev.baton.bootstrap.config.Setting.SCHEMA;

import dev.baton.bootstrap.Baton;
import jakarta.inject.Inject;
import picocli.CommandLine.Command;

/** {@code baton relay}: relays the outbox to Redis and nothing else, until SIGTERM or Ctrl-C. */
@Command(name = "relay", mixinStandardHelpOptions = true,
        description = {"Publishes the jobs committed to the outbox (enqueued in PostgreSQL transactions) to Redis, "
                + "until SIGTERM or Ctrl-C. Every worker relays too, unless BATON_RELAY=off; any number of relays "
                + "run side by side."})
final class RelayCommand extends SessionCommand {
    @Inject
    RelayCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() throws InterruptedException {
        Baton baton = batonBuilder().shutdownHook(false).build();
        // a stop in the middle of a batch leaves its claim to expire: the next relay publishes it again
        Runtime.getRuntime().addShutdownHook(new Thread(baton::close, "baton-shutdown"));
        try {
            baton.relay();
            terminal.err().println("relaying the outbox of schema " + config().get(SCHEMA)
                    + "; Ctrl-C or SIGTERM stops it");
            Thread.currentThread().join();
            return ExitCodes.OK;
        } finally {
            baton.close();
        }
    }
}
