package dev.baton.bootstrap.spring;

import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.JobHandler;
import java.sql.Connection;
import java.util.Objects;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.ConnectionHolder;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Runs a handler with the ledger's transaction as the application {@code DataSource}'s current transaction, the way
 * Spring's own transaction managers bind one: {@code JdbcTemplate} (through {@code DataSourceUtils}) then writes on
 * the ledger's connection, so its writes commit with the job's completion or roll back with a failed attempt, and a
 * {@code @Transactional} method the handler calls joins it (propagation {@code REQUIRED}). Without a ledger
 * (at-least-once) nothing is bound and {@code JdbcTemplate} works as anywhere else.
 */
final class LedgerTransactionBinding implements JobHandler {
    private final JobHandler handler;
    private final DataSource dataSource;

    LedgerTransactionBinding(JobHandler handler, DataSource dataSource) {
        this.handler = Objects.requireNonNull(handler, "handler");
        this.dataSource = Objects.requireNonNull(dataSource, "data source");
    }

    @Override
    public Optional<String> handle(JobContext context) throws Exception {
        Optional<Connection> ledger = ledgerConnection(context);
        if (ledger.isEmpty()) {
            return handler.handle(context);
        }
        // active: a transaction manager asked for a transaction here participates instead of beginning its own
        ConnectionHolder holder = new ConnectionHolder(ledger.get(), true);
        TransactionSynchronizationManager.bindResource(dataSource, holder);
        try {
            Optional<String> result = handler.handle(context);
            if (holder.isRollbackOnly()) {
                // what Spring's outer transaction would do: a participant failed, so nothing may commit
                throw new IllegalStateException("a @Transactional method that joined the job's transaction failed"
                        + " and marked it rollback-only: the job's writes roll back and the attempt fails");
            }
            return result;
        } finally {
            TransactionSynchronizationManager.unbindResourceIfPossible(dataSource);
        }
    }

    /** The ledger's connection (guarded: the handler cannot commit it), empty when the worker runs without one. */
    private static Optional<Connection> ledgerConnection(JobContext context) {
        try {
            return Optional.of(context.unwrap(Connection.class));
        } catch (UnsupportedOperationException noLedger) {
            return Optional.empty();
        }
    }
}
