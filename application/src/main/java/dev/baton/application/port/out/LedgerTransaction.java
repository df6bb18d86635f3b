package dev.baton.application.port.out;

/**
 * The ledger's open transaction as a handler sees it. A PostgreSQL handler gets its Jdbi {@code Handle} (or the JDBC
 * {@code Connection}) with {@code unwrap(Handle.class)} and writes in the same transaction as the completion record.
 */
public interface LedgerTransaction {

    /** @throws UnsupportedOperationException naming the supported types, when {@code type} is not one of them */
    <T> T unwrap(Class<T> type);
}
