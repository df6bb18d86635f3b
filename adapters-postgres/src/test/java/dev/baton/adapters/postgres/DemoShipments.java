package dev.baton.adapters.postgres;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.port.out.LedgerTransaction;
import org.jdbi.v3.core.Handle;

/** The tests' handler table {@code demo_shipments}, created through an extra migration location. */
final class DemoShipments {
    static final String LOCATION = "classpath:db/postgres-adapter-test";
    /** A shipment of this order waits inside COMMIT until the test releases {@link #holdCommits}' lock. */
    static final String HOLD_COMMIT = "hold-commit";
    /** A shipment of this order fails its transaction's commit with a check violation (SQLSTATE 23514). */
    static final String REJECT_AT_COMMIT = "reject-at-commit";

    private final TestSchema schema;

    DemoShipments(TestSchema schema) {
        this.schema = schema;
    }

    /** Ships {@code orderId} in the ledger's transaction, by unqualified name (the pool's search path finds it). */
    static void ship(LedgerTransaction transaction, String orderId, String jobId) {
        transaction.unwrap(Handle.class)
                .createUpdate("INSERT INTO demo_shipments (order_id, job_id, shipped_at) VALUES (:order, :job, now())")
                .bind("order", orderId)
                .bind("job", jobId)
                .execute();
    }

    int count(String orderId) {
        return schema.jdbi().withHandle(handle -> handle
                .createQuery("SELECT count(*) FROM " + schema.name() + ".demo_shipments WHERE order_id = :order")
                .bind("order", orderId)
                .mapTo(int.class)
                .one());
    }

    /** Holds the lock that {@link #HOLD_COMMIT} shipments wait for at commit, until the returned handle closes. */
    Handle holdCommits() {
        Handle holder = schema.jdbi().open();
        holder.createQuery("SELECT pg_advisory_lock(hashtext(:schema))").bind("schema", schema.name())
                .mapTo(String.class).one();
        return holder;
    }
}
