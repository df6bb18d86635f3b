package dev.baton.bootstrap.cli;

import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** {@code --schedules FILE}, else {@code BATON_SCHEDULES}: the schedules file of a worker or of the schedule list. */
final class SchedulesOption {
    static final String ENV = "BATON_SCHEDULES";

    @Option(names = "--schedules", paramLabel = "FILE",
            description = "a schedules file, one 'name | schedule | queue | payload' per line (env " + ENV + ")")
    Path file;

    /** The file given, else the one the environment names; empty when neither does. */
    Optional<Path> file(Terminal terminal) {
        return Optional.ofNullable(file).or(() -> Optional.ofNullable(terminal.env().get(ENV))
                .filter(name -> !name.isBlank()).map(Path::of));
    }
}
