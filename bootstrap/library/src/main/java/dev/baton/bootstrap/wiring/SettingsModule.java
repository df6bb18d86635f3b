package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.multibindings.Multibinder;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.metrics.KnownQueues;
import java.time.Clock;

/** The configuration, the clock and the per-instance bookkeeping every other module uses. */
final class SettingsModule extends AbstractModule {
    private final BatonConfig config;
    private final Clock clock;

    SettingsModule(BatonConfig config, Clock clock) {
        this.config = config;
        this.clock = clock;
    }

    @Override
    protected void configure() {
        bind(BatonConfig.class).toInstance(config);
        bind(Clock.class).toInstance(clock);
        bind(Closer.class).toInstance(new Closer());
        bind(KnownQueues.class).toInstance(new KnownQueues(config.queues()));
        Multibinder.newSetBinder(binder(), HealthCheck.class);
    }
}
