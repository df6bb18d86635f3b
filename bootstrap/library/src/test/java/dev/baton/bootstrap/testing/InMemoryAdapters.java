package dev.baton.bootstrap.testing;

import com.google.inject.AbstractModule;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.application.testing.InMemoryExecutionLedger;
import dev.baton.application.testing.InMemoryScheduleFires;
import dev.baton.application.testing.InMemoryStreamTransport;
import dev.baton.bootstrap.wiring.Migrator;
import java.time.Clock;

/** The in-memory adapters as a Guice module: swap it for the Redis and PostgreSQL modules with {@code adapters(…)}. */
public final class InMemoryAdapters extends AbstractModule {
    private final InMemoryStreamTransport transport;
    private final InMemoryExecutionLedger ledger;

    public InMemoryAdapters(Clock clock) {
        this.transport = new InMemoryStreamTransport(clock);
        this.ledger = new InMemoryExecutionLedger(clock);
    }

    @Override
    protected void configure() {
        bind(JobPublisher.class).toInstance(transport);
        bind(JobLeases.class).toInstance(transport);
        bind(QueueMaintenance.class).toInstance(transport);
        bind(QueueAdministration.class).toInstance(transport);
        bind(QueueOverview.class).toInstance(transport);
        bind(ScheduleFires.class).toInstance(new InMemoryScheduleFires(transport));
        bind(ExecutionLedger.class).toInstance(ledger);
        bind(JobOutcomes.class).toInstance(ledger);
        bind(Migrator.class).toInstance(() -> { });
    }

    public InMemoryExecutionLedger ledger() {
        return ledger;
    }
}
