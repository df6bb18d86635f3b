package dev.baton.bootstrap.config;

import dev.baton.domain.BatonException;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Reads the configuration from, in increasing precedence: defaults, environment ({@code BATON_LEASE}), an optional
 * properties file ({@code lease=30s}), command-line flags ({@code --lease 30s}). Every value is read by its
 * {@link Setting}, so a bad one fails at start with its setting, source and (masked) value.
 */
public final class ConfigLoader {
    /** The environment variable naming the properties file, when no {@code --config} flag does. */
    public static final String CONFIG_FILE_ENV = "BATON_CONFIG";

    private ConfigLoader() {
    }

    /**
     * @param env   the process environment (unrelated variables are ignored)
     * @param file  the properties file, if any; keys are the flag names without dashes
     * @param flags values given on the command line, keyed by flag name without dashes
     */
    public static BatonConfig load(Map<String, String> env, Optional<Path> file, Map<String, String> flags) {
        Map<Setting<?>, ConfigValue> texts = new HashMap<>();
        for (Setting<?> setting : Setting.all()) {
            String fromEnv = env.get(setting.envName());
            texts.put(setting, fromEnv == null ? new ConfigValue(setting.defaultText(), ConfigValue.Source.DEFAULT)
                    : new ConfigValue(fromEnv, ConfigValue.Source.ENVIRONMENT));
        }
        file.ifPresent(path -> readFile(path).forEach((key, text) ->
                texts.put(settingForKey(key, path), new ConfigValue(text, ConfigValue.Source.FILE))));
        flags.forEach((flag, text) -> texts.put(settingForKey(flag, null),
                new ConfigValue(text, ConfigValue.Source.FLAG)));
        Origin origin = new Origin() {
            @Override
            public boolean gave(Setting<?> setting) {
                return true;
            }

            @Override
            public String name(Setting<?> setting) {
                return setting.envName();
            }

            @Override
            public ConfigException invalid(Setting<?> setting, String problem) {
                return ConfigException.invalid(setting, texts.get(setting), problem);
            }
        };
        Map<Setting<?>, Object> values = new HashMap<>();
        for (Setting<?> setting : Setting.all()) {
            try {
                values.put(setting, setting.read(texts.get(setting).text()));
            } catch (IllegalArgumentException | BatonException e) {
                throw origin.invalid(setting, e.getMessage());
            }
        }
        return BatonConfig.checked(values, origin);
    }

    private static Setting<?> settingForKey(String key, Path file) {
        return Setting.named(key).orElseThrow(() -> new ConfigException("unknown setting '" + key + "'"
                + (file == null ? "" : " in " + file) + "; known settings: "
                + String.join(", ", Setting.all().stream().map(Setting::flagName).toList())));
    }

    private static Map<String, String> readFile(Path path) {
        Properties properties = new Properties();
        try (Reader reader = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
            properties.load(reader);
        } catch (IOException e) {
            throw new ConfigException("cannot read the properties file " + path + ": " + e.getMessage());
        }
        Map<String, String> entries = new TreeMap<>();
        properties.stringPropertyNames().forEach(name -> entries.put(name, properties.getProperty(name)));
        return entries;
    }
}
