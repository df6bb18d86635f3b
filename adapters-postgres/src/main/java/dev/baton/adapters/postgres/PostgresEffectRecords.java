package dev.baton.adapters.postgres;

import dev.baton.application.port.out.EffectRecords;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.InvalidValueException;
import java.util.Objects;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;

/**
 * {@link EffectRecords} on the ledger's pool: one query per count, outside any job's transaction, so it sees what
 * committed and nothing in flight.
 */
final class PostgresEffectRecords implements EffectRecords {
    private final Jdbi jdbi;
    private final String schema;

    PostgresEffectRecords(Jdbi jdbi, String schema) {
        this.jdbi = jdbi;
        this.schema = schema;
    }

    @Override
    public Count count(String table, String jobIdPrefix) {
        Objects.requireNonNull(jobIdPrefix, "job id prefix");
        if (table == null || !PostgresAdapter.Config.IDENTIFIER.matcher(table).matches()) {
            throw new InvalidValueException("the table to count must be a lower-case PostgreSQL identifier, got "
                    + (table == null ? "nothing" : "'" + table + "'"));
        }
        // LIKE's default escape character is the backslash: the prefix's own wildcards match only themselves
        String like = jobIdPrefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%";
        try {
            return jdbi.withHandle(handle -> handle.createQuery("SELECT count(*), count(DISTINCT job_id) FROM "
                            + schema + "." + table + " WHERE job_id LIKE :like")
                    .bind("like", like)
                    .map((rows, context) -> new Count(table, rows.getLong(1), rows.getLong(2)))
                    .one());
        } catch (JdbiException e) {
            throw new LedgerUnavailableException("could not count the rows of " + schema + "." + table + ": "
                    + JdbcUrls.masked(String.valueOf(e.getMessage())), e);
        }
    }
}
