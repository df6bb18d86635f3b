package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.baton.application.port.out.ExecutionLedger;


/** No ledger (BATON_MODE=at-least-once): PostgreSQL is never opened and handlers must be idempotent. */
public final class AtLeastOnceModule extends AbstractModule {

    @Provides
    @Singleton
    ExecutionLedger ledger() {
        throw new UnsupportedOperationException("TODO core");
    }

    @Provides
    Migrator migrator() {
        return () -> { };
    }
}
