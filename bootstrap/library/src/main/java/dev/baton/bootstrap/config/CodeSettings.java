package dev.baton.bootstrap.config;

import dev.baton.domain.BatonException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Settings given in code, one call per setting: {@code set(Setting.CONCURRENCY, 4)}. Each value is checked at
 * {@link #over} by its setting's rule, the one the environment's text obeys, so the bounds cannot drift apart. A
 * value given here beats the base configuration (defaults or environment), whatever the call order; a bad one names
 * the call, e.g. {@code Baton.builder().set(CONCURRENCY, 0): must be in 1..10000}.
 *
 * @param <B> the builder, returned by every call
 */
public abstract class CodeSettings<B extends CodeSettings<B>> {
    private final String owner;
    private final Map<Setting<?>, Object> given = new LinkedHashMap<>();

    /** @param owner how the builder is reached in the caller's code: {@code Baton.builder()} */
    protected CodeSettings(String owner) {
        this.owner = owner;
    }

    protected abstract B self();

    /** Sets the setting's value, checked at build by the rule of the environment's setting. */
    public <T> B set(Setting<T> setting, T value) {
        return given(setting, Objects.requireNonNull(value, setting.name()));
    }

    /** Sets the setting's value or, for a subclass that reads text (Spring's properties), the value's text. */
    protected final B given(Setting<?> setting, Object valueOrText) {
        given.put(setting, Objects.requireNonNull(valueOrText, setting.name()));
        return self();
    }

    /**
     * {@code base} with every setting given here, each checked by its setting's rule and all by the rules across
     * settings.
     *
     * @throws ConfigException naming the call (or {@link #origin}) of a value that breaks a rule
     */
    protected final BatonConfig over(BatonConfig base) {
        Origin origin = new Origin() {
            @Override
            public boolean gave(Setting<?> setting) {
                return given.containsKey(setting);
            }

            @Override
            public String name(Setting<?> setting) {
                return CodeSettings.this.name(setting);
            }

            @Override
            public ConfigException invalid(Setting<?> setting, String problem) {
                return new ConfigException(origin(setting, given.get(setting)) + ": " + problem);
            }
        };
        Map<Setting<?>, Object> values = base.values();
        given.forEach((setting, value) -> {
            try {
                values.put(setting, setting.accept(value));
            } catch (IllegalArgumentException | BatonException e) {
                throw origin.invalid(setting, e.getMessage());
            }
        });
        return BatonConfig.checked(values, origin);
    }

    /** How the caller's code names a setting: {@code BACKOFF_INITIAL}. */
    protected String name(Setting<?> setting) {
        return setting.name();
    }

    /**
     * Where a value that broke its rule came from, as the caller wrote it: {@code Baton.builder().set(CONCURRENCY,
     * 0)}. Settings read from elsewhere (Spring's {@code baton.*} properties) name their own source.
     *
     * @param valueOrText the value given, as the call took it
     */
    protected String origin(Setting<?> setting, Object valueOrText) {
        return owner + ".set(" + arguments(setting, valueOrText) + ")";
    }

    /** {@code CONCURRENCY, 0}: the call's arguments as code writes them, passwords masked. */
    private static String arguments(Setting<?> setting, Object valueOrText) {
        String text = setting.display(setting.text(valueOrText));
        String shown = valueOrText instanceof String ? "'" + text + "'"
                : valueOrText instanceof List<?> ? "[" + text.replace(",", ", ") + "]" : text;
        return setting.name() + ", " + shown;
    }

    /** {@link BatonConfig#with}'s values. */
    static final class With extends CodeSettings<With> {
        With() {
            super("BatonConfig");
        }

        @Override
        protected With self() {
            return this;
        }

        @Override
        protected String origin(Setting<?> setting, Object valueOrText) {
            return "BatonConfig.with(" + arguments(setting, valueOrText) + ")";
        }
    }
}
