package dev.baton.bootstrap.demo;

import dev.baton.application.handler.NamedJobHandler;
import dev.baton.bootstrap.BatonBuilder;
import java.util.List;

/**
 * The demo handlers ({@code orders}, {@code documents}, {@code noop}) that {@code baton dev}, {@code worker} and
 * {@code bench} always know, registered with their tables the way a user's handler library would. Only the CLI
 * registers them: the tables' migrations ship in the {@code baton} CLI jar, not in the library.
 */
public final class DemoHandlers {
    /** Migration location of the demo tables, added to the ledger's migrations. */
    public static final String MIGRATIONS = "classpath:db/demo";

    private DemoHandlers() {
    }

    public static List<NamedJobHandler> all(boolean crashOnPoison) {
        return List.of(new OrdersHandler(crashOnPoison), new DocumentsHandler(), new NoopHandler());
    }

    /** Adds the demo handlers and their tables to {@code builder}. */
    public static BatonBuilder register(BatonBuilder builder, boolean crashOnPoison) {
        return builder.handlers(all(crashOnPoison)).handlerMigrations(MIGRATIONS);
    }
}
