package dev.baton.bootstrap.demo;

import com.google.inject.AbstractModule;
import com.google.inject.multibindings.Multibinder;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.bootstrap.wiring.PostgresModule;

/**
 * Registers the demo handlers ({@code orders}, {@code documents}, {@code noop}) and their tables the way a user's
 * module would. Only the CLI installs it: the tables' migrations ship in the {@code baton} CLI jar, not in the library.
 */
public final class DemoHandlersModule extends AbstractModule {
    private final boolean crashOnPoison;

    public DemoHandlersModule(boolean crashOnPoison) {
        this.crashOnPoison = crashOnPoison;
    }

    @Override
    protected void configure() {
        Multibinder<NamedJobHandler> handlers = Multibinder.newSetBinder(binder(), NamedJobHandler.class);
        DemoHandlers.all(crashOnPoison).forEach(handler -> handlers.addBinding().toInstance(handler));
        PostgresModule.addMigrations(binder(), DemoHandlers.MIGRATIONS);
    }
}
