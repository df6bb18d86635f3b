package dev.baton.bootstrap.examples;

import com.google.inject.AbstractModule;
import com.google.inject.multibindings.MapBinder;
import com.google.inject.multibindings.Multibinder;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NamedJobHandler;
import java.util.Optional;

/** Registering handlers in a Guice module instead: {@code Baton.builder().module(new ShopModule())}. */
public final class ShopModule extends AbstractModule {
    @Override
    protected void configure() {
        // a handler that knows its name
        Multibinder.newSetBinder(binder(), NamedJobHandler.class).addBinding().to(ShipOrderHandler.class);
        // any JobHandler (a lambda too) under a name of your choice
        MapBinder.newMapBinder(binder(), String.class, JobHandler.class).addBinding("shop-audit")
                .toInstance(context -> Optional.of("audited " + context.job().id()));
    }
}
