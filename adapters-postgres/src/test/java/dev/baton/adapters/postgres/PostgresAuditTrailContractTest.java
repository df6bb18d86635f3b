package dev.baton.adapters.postgres;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.port.out.AuditTrail;
import dev.baton.application.testing.AuditTrailContract;
import java.time.Clock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresAuditTrailContractTest extends AuditTrailContract {
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

    /** One schema for the class: the table is emptied before each test. */
    @Override
    protected AuditTrail createEmptyTrail() {
        SCHEMA.jdbi().useHandle(handle -> handle.execute("TRUNCATE " + SCHEMA.config().schema() + ".audit_trail"));
        return adapter.auditTrail();
    }
}
