package dev.baton.adapters.postgres;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.testing.JobOutcomesContract;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresJobOutcomesContractTest extends JobOutcomesContract {
    @RegisterExtension
    static final TestSchema SCHEMA = new TestSchema();
    private static PostgresAdapter adapter;

    @BeforeAll
    static void openAdapter() {
        adapter = PostgresAdapter.open(SCHEMA.config(), Clock.systemUTC());
    }

    @AfterAll
    static void closeAdapter() {
        adapter.close();
    }

    @Override
    protected ExecutionLedger createLedger(Clock clock) {
        return adapter.ledger(clock);
    }

    @Override
    protected JobOutcomes createOutcomes() {
        return adapter.outcomes();
    }
}
