package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.service.AtLeastOnceExecution;
import java.time.Clock;


/** No ledger (BATON_MODE=at-least-once): PostgreSQL is never opened and handlers must be idempotent. */
public final class AtLeastOnceModule extends AbstractModule {

    @Provides
    @Singleton
    ExecutionLedger ledger(Clock clock) {
        return new AtLeastOnceExecution(clock);
    }

    @Provides
    JobOutcomes outcomes() {
        return JobOutcomes.NOT_RECORDED;
    }

    @Provides
    Migrator migrator() {
        return () -> { };
    }
}
