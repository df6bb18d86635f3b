package dev.baton.adapters.postgres;

import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.BatonException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.FlywayException;

/**
 * Applies the ledger's Flyway migrations, then each extra location's, all into the Baton schema. Every location keeps
 * its own history table, so a user's versions never collide with the ledger's (nor with each other's). The whole run
 * holds one advisory lock per schema: workers starting together migrate one after the other, and the later ones find
 * nothing left to do.
 */
final class Migrations {
    static final String LEDGER_LOCATION = "classpath:dev/baton/adapters/postgres/migration";
    static final String LEDGER_HISTORY_TABLE = "baton_schema_history";

    private static final String EXTRA_HISTORY_PREFIX = LEDGER_HISTORY_TABLE + "_";
    private static final int MAX_IDENTIFIER_LENGTH = 63;
    // first key of pg_advisory_lock(int, int); the second is the schema's hash
    private static final int LOCK_SPACE = 0x4261746E;

    private final DataSource dataSource;
    private final String schema;
    private final List<String> extraLocations;
    private final String maskedUrl;

    Migrations(DataSource dataSource, String schema, List<String> extraLocations, String maskedUrl) {
        this.dataSource = dataSource;
        this.schema = schema;
        this.extraLocations = List.copyOf(extraLocations);
        this.maskedUrl = maskedUrl;
    }

    void apply() {
        try (Connection lockHolder = dataSource.getConnection()) {
            // a session lock: closing the connection releases it, even when a migration fails
            try (PreparedStatement lock = lockHolder.prepareStatement("SELECT pg_advisory_lock(?, ?)")) {
                lock.setInt(1, LOCK_SPACE);
                lock.setInt(2, schema.hashCode());
                lock.execute();
            }
            migrate(LEDGER_LOCATION, LEDGER_HISTORY_TABLE);
            for (String location : extraLocations) {
                migrate(location, historyTable(location));
            }
        } catch (SQLException e) {
            throw new LedgerUnavailableException("could not migrate schema " + schema + " at " + maskedUrl
                    + " (BATON_JDBC_URL): " + JdbcUrls.masked(e.getMessage()), e);
        } catch (FlywayException e) {
            throw new BatonException("migrating schema " + schema + " at " + maskedUrl + " failed: "
                    + JdbcUrls.masked(e.getMessage()), e);
        }
    }

    private void migrate(String location, String historyTable) {
        Flyway.configure()
                .dataSource(dataSource)
                .schemas(schema)
                .defaultSchema(schema)
                .table(historyTable)
                .locations(location)
                .failOnMissingLocations(true)
                // the schema is shared by several histories (and may hold the user's own tables): a location's
                // first run starts its history below its V1 instead of refusing a non-empty schema
                .baselineOnMigrate(true)
                .baselineVersion("0")
                .load()
                .migrate();
    }

    /**
     * The history table of an extra migration location, derived from the location so that it stays stable across
     * restarts: {@code classpath:db/shipping} keeps its history in {@code baton_schema_history_db_shipping}.
     */
    static String historyTable(String location) {
        String slug = location.replaceFirst("^(classpath|filesystem):", "")
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9]+", "_")
                .replaceAll("^_+|_+$", "");
        String name = EXTRA_HISTORY_PREFIX + slug;
        if (slug.isEmpty() || name.length() > MAX_IDENTIFIER_LENGTH) {
            CRC32 crc = new CRC32();
            crc.update(location.getBytes(StandardCharsets.UTF_8));
            String suffix = "_" + HexFormat.of().toHexDigits((int) crc.getValue());
            name = name.substring(0, Math.min(name.length(), MAX_IDENTIFIER_LENGTH - suffix.length())) + suffix;
        }
        return name.replace("__", "_");
    }
}
