package dev.baton.bootstrap.demo;

import dev.baton.application.handler.NamedJobHandler;
import java.util.List;

/** The demo handlers that {@code baton dev} and {@code baton worker} always know. */
public final class DemoHandlers {
    /** Flyway location of the demo tables, added to the ledger's migrations. */
    public static final String MIGRATIONS = "classpath:db/demo";

    private DemoHandlers() {
    }

    public static List<NamedJobHandler> all(boolean crashOnPoison) {
        return List.of(new OrdersHandler(crashOnPoison), new DocumentsHandler(), new NoopHandler());
    }
}
