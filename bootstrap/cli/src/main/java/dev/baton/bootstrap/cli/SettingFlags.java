package dev.baton.bootstrap.cli;

import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.config.Setting;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/** Adds a {@code --<name>} flag for every {@link Setting}, plus {@code --config FILE}, to a command. */
final class SettingFlags {
    static final String CONFIG = "--config";

    private SettingFlags() {
    }

    static void addTo(CommandSpec spec) {
        spec.addOption(OptionSpec.builder(CONFIG).paramLabel("FILE").type(Path.class)
                .description("properties file with settings (key = flag name); env " + ConfigLoader.CONFIG_FILE_ENV)
                .build());
        for (Setting<?> setting : Setting.all()) {
            if (spec.findOption("--" + setting.flagName()) == null) {
                spec.addOption(OptionSpec.builder("--" + setting.flagName()).paramLabel("VALUE").type(String.class)
                        .description(setting.description() + " (env " + setting.envName() + ", default '"
                                + setting.defaultText() + "')")
                        .hidden(true)
                        .build());
            }
        }
    }

    /** The configuration: defaults, then {@code overrides} (a command's own defaults), env, file, flags. */
    static BatonConfig load(CommandSpec spec, Terminal terminal, Map<String, String> overrides) {
        Map<String, String> env = new HashMap<>();
        overrides.forEach((flag, value) -> env.put("BATON_" + flag.toUpperCase(Locale.ROOT)
                .replace('-', '_'), value));
        env.putAll(terminal.env());
        Map<String, String> flags = new HashMap<>();
        for (Setting<?> setting : Setting.all()) {
            OptionSpec option = spec.findOption("--" + setting.flagName());
            if (option != null && option.getValue() != null) {
                flags.put(setting.flagName(), String.valueOf((Object) option.getValue()));
            }
        }
        Path configFlag = spec.findOption(CONFIG).getValue();
        Optional<Path> file = Optional.ofNullable(configFlag)
                .or(() -> Optional.ofNullable(terminal.env().get(ConfigLoader.CONFIG_FILE_ENV)).map(Path::of));
        return ConfigLoader.load(env, file, flags);
    }
}
