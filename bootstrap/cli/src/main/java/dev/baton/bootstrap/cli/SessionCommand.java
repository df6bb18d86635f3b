package dev.baton.bootstrap.cli;

import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.BatonBuilder;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.Secrets;
import dev.baton.bootstrap.config.Setting;
import dev.baton.domain.QueueName;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** A command that reads the configuration (env, file, flags) and usually opens a {@link Baton}. */
abstract class SessionCommand implements Callable<Integer> {
    protected final Terminal terminal;
    @Spec
    CommandSpec spec;
    private BatonConfig config;

    SessionCommand(Terminal terminal) {
        this.terminal = terminal;
    }

    /** Settings this command defaults differently (lowest precedence: the environment still wins). */
    Map<String, String> defaultOverrides() {
        return Map.of();
    }

    final BatonConfig config() {
        if (config == null) {
            // a command fails at once, with the server's error, rather than waiting for a server that is down
            Map<String, String> defaults = new HashMap<>(Map.of(Setting.REQUIRE_SERVERS_AT_START.flagName(), "on"));
            defaults.putAll(defaultOverrides());
            config = SettingFlags.load(spec, terminal, defaults);
        }
        return config;
    }

    final BatonBuilder batonBuilder() {
        return Baton.builder().config(config());
    }

    /** Hides configured passwords in an error message; before the configuration loaded, masks URI passwords. */
    final String redact(String message) {
        return config == null ? Secrets.mask(message) : config.redact(message);
    }

    static List<QueueName> queues(List<String> names) {
        return names.stream().map(QueueName::of).toList();
    }
}
