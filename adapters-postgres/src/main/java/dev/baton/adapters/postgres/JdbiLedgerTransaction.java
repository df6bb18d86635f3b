package dev.baton.adapters.postgres;

import dev.baton.application.port.out.LedgerTransaction;
import java.sql.Connection;
import org.jdbi.v3.core.Handle;

/** Hands the ledger's open transaction to a handler as a Jdbi {@link Handle} or its JDBC {@link Connection}. */
record JdbiLedgerTransaction(Handle handle) implements LedgerTransaction {

    @Override
    public <T> T unwrap(Class<T> type) {
        if (type == Handle.class) {
            return type.cast(handle);
        }
        if (type == Connection.class) {
            return type.cast(EffectGuard.guarded(handle.getConnection()));
        }
        throw new UnsupportedOperationException("the PostgreSQL ledger's transaction unwraps to "
                + Handle.class.getName() + " or " + Connection.class.getName() + ", not "
                + (type == null ? "null" : type.getName()));
    }
}
