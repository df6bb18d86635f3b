package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.application.port.out.AuditTrail;
import dev.baton.domain.AuditEntry;
import dev.baton.domain.AuditRecord;
import dev.baton.domain.QueueName;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.jdbi.v3.core.statement.Query;
import org.jdbi.v3.core.statement.StatementContext;

/**
 * The audit trail in the {@code audit_trail} table of the ledger's schema ({@code V13__audit_trail.sql}): each call
 * one statement in a transaction of its own; pages keyset-paged on the id, which the primary key serves.
 */
final class PostgresAuditTrail implements AuditTrail {
    private static final String COLUMNS = "id, at, admin_user, client, method, path, queue, action, summary,"
            + " affected, status";

    private final Jdbi jdbi;
    private final String table;

    PostgresAuditTrail(Jdbi jdbi, String schema) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        this.table = schema + ".audit_trail";
    }

    @Override
    public void record(AuditEntry entry) {
        Objects.requireNonNull(entry, "entry");
        withHandle("could not record the audit entry of " + entry.method() + " " + entry.path(), handle -> handle
                .createUpdate("INSERT INTO " + table + " (at, admin_user, client, method, path, queue, action,"
                        + " summary, affected, status) VALUES (:at, :user, :client, :method, :path, :queue, :action,"
                        + " :summary, :affected, :status)")
                .bind("at", LedgerTransactions.utc(entry.at()))
                .bind("user", entry.user().orElse(null))
                .bind("client", entry.client())
                .bind("method", entry.method())
                .bind("path", entry.path())
                .bind("queue", entry.queue().map(QueueName::value).orElse(null))
                .bind("action", entry.action())
                .bind("summary", entry.summary())
                .bind("affected", entry.affected().isPresent() ? entry.affected().getAsLong() : null)
                .bind("status", entry.status())
                .execute());
    }

    @Override
    public List<AuditRecord> recent(Optional<Long> before, int limit) {
        Objects.requireNonNull(before, "before");
        return withHandle("could not read the audit trail", handle -> {
            Query query = handle.createQuery("SELECT " + COLUMNS + " FROM " + table
                    + (before.isPresent() ? " WHERE id < :before" : "") + " ORDER BY id DESC LIMIT :limit")
                    .bind("limit", limit);
            before.ifPresent(id -> query.bind("before", id));
            return query.map(PostgresAuditTrail::row).list();
        });
    }

    @Override
    public long forgetBefore(Instant cutoff) {
        Objects.requireNonNull(cutoff, "cutoff");
        return withHandle("could not forget the audit entries before " + cutoff, handle -> handle
                .createUpdate("DELETE FROM " + table + " WHERE at < :cutoff")
                .bind("cutoff", LedgerTransactions.utc(cutoff))
                .execute());
    }

    /** The one mapping step, row to domain. */
    private static AuditRecord row(ResultSet rs, StatementContext context) throws SQLException {
        long affected = rs.getLong("affected");
        OptionalLong count = rs.wasNull() ? OptionalLong.empty() : OptionalLong.of(affected);
        AuditEntry entry = new AuditEntry(rs.getObject("at", OffsetDateTime.class).toInstant(),
                Optional.ofNullable(rs.getString("admin_user")), rs.getString("client"), rs.getString("method"),
                rs.getString("path"), Optional.ofNullable(rs.getString("queue")).map(QueueName::of),
                rs.getString("action"), rs.getString("summary"), count, rs.getInt("status"));
        return new AuditRecord(rs.getLong("id"), entry);
    }

    private <T> T withHandle(String failure, HandleCallback<T, RuntimeException> callback) {
        try {
            return jdbi.withHandle(callback);
        } catch (JdbiException e) {
            throw unavailable(failure, e);
        }
    }
}
