package dev.baton.adapters.postgres;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.CRC32;

/**
 * One versioned script of a migration location, {@code V<version>__<description>.sql}.
 *
 * @param path the script's path inside its location ({@code V1__shipments.sql}, or {@code orders/V2__x.sql} in a
 *             sub-directory), recorded as the history's {@code script}
 * @param text the script as read, before any placeholder is replaced
 */
record MigrationScript(ScriptVersion version, String description, String path, String text) {
    private static final Pattern NAME = Pattern.compile("V(\\d+(?:[._]\\d+)*)__(.*)\\.sql");
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]*)}");
    /** The one placeholder Baton replaces, as Flyway did: the name of the schema being migrated. */
    static final String DEFAULT_SCHEMA = "flyway:defaultSchema";
    private static final char BYTE_ORDER_MARK = '\uFEFF';

    /** Whether a file of a location is a script there: any {@code .sql} file, whatever its name says. */
    static boolean isScript(String fileName) {
        return fileName.toLowerCase(Locale.ROOT).endsWith(".sql");
    }

    /**
     * The script at {@code path} (its name is the last segment).
     *
     * @throws MigrationException when the name is not {@code V<version>__<description>.sql}
     */
    static MigrationScript of(String path, String text) {
        Matcher name = NAME.matcher(path.substring(path.lastIndexOf('/') + 1));
        if (!name.matches()) {
            throw new MigrationException(path + " is not named like a versioned script, V<version>__<description>.sql"
                    + " (for example V1__shipments.sql or V1_1__shipment_index.sql)");
        }
        return new MigrationScript(ScriptVersion.parse(name.group(1)), name.group(2).replace('_', ' '), path, text);
    }

    /**
     * The script's checksum as Flyway computes it for a versioned script, so that histories written by either agree:
     * the CRC32 of the UTF-8 bytes of its lines, without line breaks or byte order marks, before placeholders.
     */
    int checksum() {
        CRC32 crc = new CRC32();
        try (BufferedReader lines = new BufferedReader(new StringReader(text))) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                crc.update(withoutByteOrderMark(line).getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringReader does not fail
        }
        return (int) crc.getValue();
    }

    /**
     * The SQL to run in {@code schema}: {@code ${flyway:defaultSchema}} replaced by the schema's name.
     *
     * @throws MigrationException for any other placeholder, which Baton has no value for
     */
    String sqlFor(String schema) {
        Matcher placeholder = PLACEHOLDER.matcher(withoutByteOrderMark(text));
        StringBuilder sql = new StringBuilder();
        while (placeholder.find()) {
            if (!placeholder.group(1).equals(DEFAULT_SCHEMA)) {
                throw new MigrationException(path + " uses the placeholder " + placeholder.group()
                        + ", which has no value: a script may use ${" + DEFAULT_SCHEMA + "} only");
            }
            placeholder.appendReplacement(sql, Matcher.quoteReplacement(schema));
        }
        return placeholder.appendTail(sql).toString();
    }

    private static String withoutByteOrderMark(String line) {
        return !line.isEmpty() && line.charAt(0) == BYTE_ORDER_MARK ? line.substring(1) : line;
    }
}
