package dev.baton.adapters.postgres;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Locale;
import java.util.zip.CRC32;

/**
 * A place holding versioned scripts ({@code classpath:db/shop}, {@code filesystem:/opt/app/sql}) and the history
 * table that records which of them the schema has.
 *
 * @param checksumsChecked whether a script changed after it was applied fails the migration. True for an extra
 *                         location: a user's edit of an applied script would never run, so it is refused. False for
 *                         the ledger's own scripts, which Baton edits only to make a step lighter for ledgers to come:
 *                         a ledger that applied the earlier text keeps it.
 */
record MigrationLocation(String name, String historyTable, boolean checksumsChecked) {
    static final String LEDGER_NAME = "classpath:dev/baton/adapters/postgres/migration";
    static final String LEDGER_HISTORY_TABLE = "baton_schema_history";
    static final MigrationLocation LEDGER = new MigrationLocation(LEDGER_NAME, LEDGER_HISTORY_TABLE, false);

    private static final String EXTRA_HISTORY_PREFIX = LEDGER_HISTORY_TABLE + "_";
    private static final int MAX_IDENTIFIER_LENGTH = 63;

    /** A location of the handlers' own tables, with the history table its name gives it. */
    static MigrationLocation extra(String name) {
        return new MigrationLocation(name, historyTable(name), true);
    }

    /**
     * The history table of an extra location, derived from the location so that it stays stable across restarts:
     * {@code classpath:db/shipping} keeps its history in {@code baton_schema_history_db_shipping}.
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
