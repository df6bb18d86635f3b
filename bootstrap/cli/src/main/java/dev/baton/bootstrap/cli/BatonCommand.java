package dev.baton.bootstrap.cli;

import com.google.inject.ConfigurationException;
import com.google.inject.Guice;
import com.google.inject.Injector;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.domain.InvalidValueException;
import jakarta.inject.Inject;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code baton}: the top-level command; every real command is a subcommand. */
@Command(name = "baton", mixinStandardHelpOptions = true, version = "baton 0.1.0",
        description = "Reliable, retryable jobs: Redis Streams delivery, exactly-once effects in PostgreSQL.",
        subcommands = {DevCommand.class, WorkerCommand.class, EnqueueCommand.class, StatsCommand.class,
                JobCommand.class, CancelCommand.class, DlqCommand.class, QueueCommand.class, ScheduleCommand.class,
                MigrateCommand.class, TrimCommand.class, ConfigCommand.class, BenchCommand.class, RelayCommand.class,
                DashboardCommand.class},
        footer = {"", "Every setting is BATON_<NAME> in the environment, <name> in a properties file (--config FILE) "
                + "and --<name> as a flag of any command; flags win over the file, the file over the environment. "
                + "`baton config` lists the settings and their effective values.",
                "Exit status: 0 ok, 1 runtime failure, 2 usage or configuration error, 3 the job ended already "
                        + "(cancel)."})
final class BatonCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(BatonCommand.class);
    private static final int USAGE_WIDTH = 110;
    private final Terminal terminal;
    @Spec
    CommandSpec spec;

    @Inject
    BatonCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    /** {@code baton} alone: the usage, as a usage error. */
    @Override
    public Integer call() {
        spec.commandLine().usage(terminal.err());
        return ExitCodes.USAGE;
    }

    static CommandLine commandLine(Terminal terminal) {
        Injector injector = Guice.createInjector(new CliModule(terminal));
        CommandLine commandLine = new CommandLine(injector.getInstance(BatonCommand.class), new Factory(injector));
        commandLine.setUsageHelpWidth(USAGE_WIDTH);
        addSettingFlags(commandLine);
        commandLine.setOut(new PrintWriter(terminal.out(), true));
        commandLine.setErr(new PrintWriter(terminal.err(), true));
        commandLine.setParameterExceptionHandler((problem, args) -> {
            terminal.err().println("baton: " + problem.getMessage());
            terminal.err().println("Try 'baton " + problem.getCommandLine().getCommandName() + " --help'.");
            return ExitCodes.USAGE;
        });
        commandLine.setExecutionExceptionHandler((failure, cl, parseResult) -> {
            Object command = cl.getCommand();
            String text = failure.getMessage() == null ? failure.toString() : failure.getMessage();
            String message = command instanceof SessionCommand session ? session.redact(text) : text;
            LOG.debug("command failed error={}", message);
            terminal.err().println("baton: " + message.replaceAll("\\s*\\R\\s*", " "));
            return isUsageError(failure) ? ExitCodes.USAGE : ExitCodes.FAILURE;
        });
        return commandLine;
    }

    private static boolean isUsageError(Exception failure) {
        return failure instanceof ConfigException || failure instanceof UsageException
                || failure instanceof InvalidValueException;
    }

    private static void addSettingFlags(CommandLine commandLine) {
        Map<String, CommandLine> subcommands = commandLine.getSubcommands();
        if (subcommands.isEmpty() && commandLine.getCommand() instanceof SessionCommand) {
            SettingFlags.addTo(commandLine.getCommandSpec());
        }
        subcommands.values().forEach(BatonCommand::addSettingFlags);
    }

    /**
     * Creates the commands and their mixins through Guice, each with what its constructor asks for; what Guice cannot
     * make (picocli's own collections of option values), picocli makes itself.
     */
    private record Factory(Injector injector) implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            try {
                return injector.getInstance(type);
            } catch (ConfigurationException notInjectable) {
                return CommandLine.defaultFactory().create(type);
            }
        }
    }
}
