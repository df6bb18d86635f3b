package dev.baton.bootstrap.config;

import dev.baton.domain.BatonException;

/** The configuration is invalid: the message names the setting, where it came from and the (masked) bad value. */
public final class ConfigException extends BatonException {
    public ConfigException(String message) {
        super(message);
    }

    static ConfigException invalid(Setting<?> setting, ConfigValue value, String problem) {
        return new ConfigException("invalid " + setting.envName() + " (--" + setting.flagName() + ") = '"
                + setting.display(value.text()) + "' from " + value.source().label + ": " + problem);
    }
}
