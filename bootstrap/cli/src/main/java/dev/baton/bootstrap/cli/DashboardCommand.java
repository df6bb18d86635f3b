package dev.baton.bootstrap.cli;

import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.Setting;
import jakarta.inject.Inject;
import java.net.InetSocketAddress;
import picocli.CommandLine.Command;

/** {@code baton dashboard}: the admin HTTP server alone, without workers, until SIGTERM or Ctrl-C. */
@Command(name = "dashboard", mixinStandardHelpOptions = true,
        description = {"Serves the admin HTTP server (dashboard and JSON API) on BATON_ADMIN_ADDRESS against the "
                + "configured Redis and PostgreSQL, without running workers, until SIGTERM or Ctrl-C.",
                "Set BATON_ADMIN_VIEWER_PASSWORD and BATON_ADMIN_OPERATOR_PASSWORD to log in (docs/OPERATIONS.md)."})
final class DashboardCommand extends SessionCommand {
    @Inject
    DashboardCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() throws InterruptedException {
        if (config().adminAddress().isEmpty()) {
            throw new UsageException("the dashboard needs an admin address: " + Setting.ADMIN_ADDRESS.envName()
                    + " is off");
        }
        Baton baton = batonBuilder().shutdownHook(false).build();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                baton.close();
                terminal.err().println("dashboard stopped");
            } finally {
                // a signal ends the JVM with 128+n; a stop once the server and connections closed is a success
                Runtime.getRuntime().halt(ExitCodes.OK);
            }
        }, "baton-shutdown"));
        try {
            InetSocketAddress address = baton.startAdmin().orElseThrow();
            terminal.err().println("dashboard on http://" + address.getHostString() + ":" + address.getPort()
                    + "/ ; Ctrl-C or SIGTERM stops it");
            Thread.currentThread().join();
            return ExitCodes.OK;
        } finally {
            baton.close();
        }
    }
}
