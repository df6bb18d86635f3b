package dev.baton.bootstrap.spring;

import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.CodeSettings;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.Setting;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;

/**
 * Every {@link Setting} as the property {@code baton.<flag name>}, bound by Spring's {@link Binder} (relaxed names,
 * so {@code BATON_CONCURRENCY} works too; YAML lists for list settings) and checked by the setting's rule, so that
 * a bad one fails the context naming the property and its value, e.g. {@code baton.concurrency=0: must be in
 * 1..10000}. An unset property keeps Baton's default.
 */
final class PropertySettings extends CodeSettings<PropertySettings> {
    static final String PREFIX = "baton.";

    private PropertySettings() {
        super("baton");
    }

    @Override
    protected PropertySettings self() {
        return this;
    }

    @Override
    protected String name(Setting<?> setting) {
        return PREFIX + setting.flagName();
    }

    @Override
    protected String origin(Setting<?> setting, Object valueOrText) {
        return name(setting) + "=" + setting.display(setting.text(valueOrText));
    }

    /** @throws ConfigException naming the property, when one breaks its rule */
    static BatonConfig config(Binder binder) {
        PropertySettings settings = new PropertySettings();
        for (Setting<?> setting : Setting.all()) {
            bound(binder, setting).ifPresent(value -> settings.given(setting, value));
        }
        return settings.over(BatonConfig.defaults());
    }

    /** The property's value as Spring converts it ({@link Setting.Type#bindAs()}), when it is set. */
    static Optional<?> bound(Binder binder, Setting<?> setting) {
        String name = PREFIX + setting.flagName();
        Class<?> type = setting.type().bindAs();
        return Optional.ofNullable(type == List.class ? binder.bind(name, Bindable.listOf(String.class)).orElse(null)
                : binder.bind(name, Bindable.of(type)).orElse(null));
    }
}
