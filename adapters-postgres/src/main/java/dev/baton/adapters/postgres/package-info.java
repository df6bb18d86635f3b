/**
 * The PostgreSQL adapter: the execution ledger, the job outcomes, the outbox and the migrations, through Jdbi, JDBC and
 * HikariCP. {@code PostgresAdapter} is its one public class and builds the package-private rest. Jdbi and JDBC are used
 * here only; a failure leaves as a {@code LedgerOutcome} or a {@code LedgerUnavailableException}.
 */
package dev.baton.adapters.postgres;
