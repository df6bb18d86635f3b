package dev.baton.adapters.postgres;

import dev.baton.adapters.postgres.HistoryTable.AppliedScript;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which scripts of a location the schema still needs, from the location's scripts and its history. A version in the
 * history without a script (one a newer Baton applied, or a script removed since) is left as it is.
 */
final class PendingScripts {
    private PendingScripts() {
    }

    /**
     * The scripts not applied yet, in version order.
     *
     * @param scripts the location's scripts, in version order
     * @throws MigrationException when a script of a location that checks checksums changed after it was applied, or
     *                            when a script not applied is older than one applied (it would run out of order)
     */
    static List<MigrationScript> of(MigrationLocation location, List<MigrationScript> scripts,
                                    List<AppliedScript> history) {
        Map<ScriptVersion, AppliedScript> applied = new HashMap<>();
        ScriptVersion latest = null;
        for (AppliedScript row : history) {
            applied.put(row.version(), row);
            latest = latest == null || row.version().compareTo(latest) > 0 ? row.version() : latest;
        }
        List<MigrationScript> pending = new ArrayList<>();
        for (MigrationScript script : scripts) {
            AppliedScript row = applied.get(script.version());
            if (row == null && latest != null && script.version().compareTo(latest) < 0) {
                throw new MigrationException(script.path() + " of " + location.name() + " is not applied, and version "
                        + latest + " is: give it a version above " + latest + " to apply it after the others");
            }
            if (row == null) {
                pending.add(script);
            } else if (location.checksumsChecked() && row.checksum() != null && row.checksum() != script.checksum()) {
                throw new MigrationException(script.path() + " of " + location.name() + " changed after it was applied"
                        + " (checksum " + script.checksum() + ", " + location.historyTable() + " recorded "
                        + row.checksum() + "): put it back as it was and make the change in a script of a new version");
            }
        }
        return pending;
    }
}
