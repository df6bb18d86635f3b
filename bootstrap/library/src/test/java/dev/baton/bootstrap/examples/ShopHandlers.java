package dev.baton.bootstrap.examples;

import dev.baton.bootstrap.BatonBuilder;
import java.util.List;
import java.util.Optional;

/** The shop's handlers and their tables, registered in one place: {@code ShopHandlers.register(Baton.builder())}. */
public final class ShopHandlers {
    private ShopHandlers() {
    }

    public static BatonBuilder register(BatonBuilder builder) {
        return builder
                // handlers that know their names
                .handlers(List.of(new ShipOrderHandler()))
                // any JobHandler (a lambda too) under a name of your choice
                .handler("shop-audit", context -> Optional.of("audited " + context.job().id()))
                // the tables they write (migrations), applied after the ledger's whenever it opens
                .handlerMigrations("classpath:db/shop");
    }
}
