package dev.baton.bootstrap.config;

import java.util.function.Function;
import java.util.stream.Collectors;

/** The settings tables of the docs, generated from {@link Setting#all()}. */
public final class SettingsTable {
    private SettingsTable() {
    }

    /** docs/OPERATIONS.md's configuration table: every spelling of each setting, its default and its doc. */
    public static String operations() {
        return "| Environment | Flag | Default | Builder | Meaning |\n|---|---|---|---|---|\n"
                + rows(setting -> "| `" + setting.envName() + "` | `--" + setting.flagName() + "` | "
                        + shown(setting.defaultText()) + " | `set(" + setting.name() + ", "
                        + setting.type().javaName() + ")` | " + setting.doc() + " |");
    }

    /**
     * docs/SPRING.md's table of the settings' properties, the doc's links pointing into OPERATIONS.md.
     *
     * @param defaultOf a property's default as Spring shows it
     */
    public static String spring(Function<Setting<?>, String> defaultOf) {
        return "| property | default | meaning |\n|---|---|---|\n"
                + rows(setting -> "| `baton." + setting.flagName() + "` | " + shown(defaultOf.apply(setting)) + " | "
                        + setting.doc().replace("](#", "](OPERATIONS.md#") + " |");
    }

    private static String rows(Function<Setting<?>, String> row) {
        return Setting.all().stream().map(row).collect(Collectors.joining("\n", "", "\n"));
    }

    private static String shown(String defaultText) {
        return defaultText.isEmpty() ? "(none)" : "`" + defaultText + "`";
    }
}
