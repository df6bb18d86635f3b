package dev.baton.bootstrap.cli;

import dev.baton.bootstrap.config.Setting;
import jakarta.inject.Inject;
import java.util.Map;
import picocli.CommandLine.Command;

/** {@code baton config}: every setting with its effective value (passwords masked) and how to set it. */
@Command(name = "config", mixinStandardHelpOptions = true,
        description = "Prints every setting's effective value (passwords masked) after env, file and flags.")
final class ConfigCommand extends SessionCommand {
    @Inject
    ConfigCommand(Terminal terminal) {
        super(terminal);
    }

    @Override
    public Integer call() {
        Map<String, String> effective = config().describe();
        Table table = new Table("SETTING", "ENV", "FLAG", "VALUE");
        for (Setting<?> setting : Setting.all()) {
            table.row(setting.flagName(), setting.envName(), "--" + setting.flagName(),
                    effective.get(setting.flagName()));
        }
        table.print(terminal.out());
        return ExitCodes.OK;
    }
}
