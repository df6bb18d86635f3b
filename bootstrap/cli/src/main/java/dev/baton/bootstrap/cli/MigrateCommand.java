package dev.baton.bootstrap.cli;

import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.Setting;
import jakarta.inject.Inject;
import picocli.CommandLine.Command;

/** {@code baton migrate}: creates or updates the ledger's tables (workers also migrate when they start). */
@Command(name = "migrate", mixinStandardHelpOptions = true,
        description = "Creates or updates the ledger's tables in BATON_SCHEMA (any command opening the ledger does).")
final class MigrateCommand extends SessionCommand {
    @Inject
    MigrateCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() {
        try (Baton baton = batonBuilder().build()) {
            baton.migrate();
        }
        terminal.out().println("schema " + config().get(Setting.SCHEMA) + " is up to date");
        return ExitCodes.OK;
    }
}
