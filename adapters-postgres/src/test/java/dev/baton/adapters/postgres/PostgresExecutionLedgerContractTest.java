package dev.baton.adapters.postgres;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.LedgerTransaction;
import dev.baton.application.testing.ExecutionLedgerContract;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresExecutionLedgerContractTest extends ExecutionLedgerContract {
    @RegisterExtension
    static final TestSchema SCHEMA = new TestSchema();
    private static final DemoShipments SHIPMENTS = new DemoShipments(SCHEMA);
    private static PostgresAdapter adapter;

    @BeforeAll
    static void openAdapter() {
        adapter = PostgresAdapter.open(
                SCHEMA.config().withExtraMigrationLocations(List.of(DemoShipments.LOCATION)), Clock.systemUTC());
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
    protected void recordEffect(LedgerTransaction transaction, String marker) {
        DemoShipments.ship(transaction, marker, "contract");
    }

    @Override
    protected boolean effectRecorded(String marker) {
        return SHIPMENTS.count(marker) > 0;
    }
}
