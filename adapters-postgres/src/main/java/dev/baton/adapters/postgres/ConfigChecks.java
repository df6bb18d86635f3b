package dev.baton.adapters.postgres;

import dev.baton.domain.InvalidValueException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.postgresql.Driver;

/** The checks behind {@link PostgresAdapter.Config}: each names the setting it refuses and never shows a password. */
final class ConfigChecks {
    private ConfigChecks() {
    }

    static void requireJdbcUrl(String url) {
        String example = " (for example jdbc:postgresql://localhost:5432/app?user=baton&password=...)";
        if (url == null || url.isBlank()) {
            throw new InvalidValueException("BATON_JDBC_URL is required" + example);
        }
        if (!url.startsWith("jdbc:postgresql:")) {
            throw new InvalidValueException("BATON_JDBC_URL must start with jdbc:postgresql:" + example + ", got '"
                    + abbreviate(JdbcUrls.masked(url)) + "'");
        }
        // checked before the driver parses it: the driver would log the password as a bad port number
        if (JdbcUrls.hasUserInfo(url)) {
            throw new InvalidValueException("BATON_JDBC_URL cannot carry user:password@ before the host (the "
                    + "PostgreSQL driver does not read it); pass ?user=...&password=... instead, got '"
                    + abbreviate(JdbcUrls.masked(url)) + "'");
        }
        if (Driver.parseURL(url, null) == null) {
            throw new InvalidValueException("BATON_JDBC_URL is not a valid PostgreSQL JDBC URL" + example
                    + ", got '" + abbreviate(JdbcUrls.masked(url)) + "'");
        }
    }

    static List<String> requireLocations(List<String> locations) {
        if (locations == null) {
            throw new InvalidValueException("extra migration locations are required (use an empty list)");
        }
        Map<String, String> byHistoryTable = new HashMap<>();
        for (String location : locations) {
            if (location == null || location.isBlank()) {
                throw new InvalidValueException("an extra migration location is blank");
            }
            if (location.equals(MigrationLocation.LEDGER_NAME)) {
                throw new InvalidValueException("the ledger's own migrations are applied already, not as an "
                        + "extra location: " + location);
            }
            String clash = byHistoryTable.put(MigrationLocation.historyTable(location), location);
            if (clash != null) {
                throw new InvalidValueException("extra migration locations '" + clash + "' and '" + location
                        + "' would share the history table " + MigrationLocation.historyTable(location)
                        + "; rename one of them");
            }
        }
        return List.copyOf(locations);
    }

    static String abbreviate(String text) {
        return text.length() <= 200 ? text : text.substring(0, 199) + "…";
    }
}
