package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.adapters.postgres.HistoryTable.AppliedScript;
import java.util.List;
import org.junit.jupiter.api.Test;

class PendingScriptsTest {
    private static final MigrationLocation SHOP = MigrationLocation.extra("classpath:db/shop");
    private static final MigrationScript V1 = MigrationScript.of("V1__orders.sql", "CREATE TABLE orders ();");
    private static final MigrationScript V2 = MigrationScript.of("V2__lines.sql", "CREATE TABLE lines ();");
    private static final MigrationScript V10 = MigrationScript.of("V10__notes.sql", "CREATE TABLE notes ();");

    @Test
    void scriptsNotInTheHistoryArePendingInVersionOrder() {
        assertThat(PendingScripts.of(SHOP, List.of(V1, V2, V10), List.of(applied(V1))))
                .containsExactly(V2, V10);
        assertThat(PendingScripts.of(SHOP, List.of(V1, V2, V10), List.of())).containsExactly(V1, V2, V10);
    }

    @Test
    void aBaselineCountsAsItsVersionApplied() {
        MigrationScript v0 = MigrationScript.of("V0__seed.sql", "SELECT 1;");
        AppliedScript baseline = new AppliedScript(ScriptVersion.parse("0"), "<< Flyway Baseline >>", null);

        assertThat(PendingScripts.of(SHOP, List.of(v0, V1), List.of(baseline))).containsExactly(V1);
    }

    @Test
    void historyVersionsWithoutAScriptAreLeftAsTheyAre() {
        AppliedScript newer = new AppliedScript(ScriptVersion.parse("11"), "V11__later.sql", 42);

        assertThat(PendingScripts.of(SHOP, List.of(V1, V2, V10),
                List.of(applied(V1), applied(V2), applied(V10), newer))).isEmpty();
    }

    @Test
    void aScriptOlderThanAnAppliedOneIsRefused() {
        MigrationScript late = MigrationScript.of("V1_5__late.sql", "SELECT 1;");

        assertThatThrownBy(() -> PendingScripts.of(SHOP, List.of(V1, late, V2), List.of(applied(V1), applied(V2))))
                .isInstanceOf(MigrationException.class)
                .hasMessage("V1_5__late.sql of classpath:db/shop is not applied, and version 2 is: give it a version"
                        + " above 2 to apply it after the others");
    }

    @Test
    void aChangedScriptOfAnExtraLocationIsRefused() {
        MigrationScript edited = MigrationScript.of("V1__orders.sql", "CREATE TABLE orders (id int);");

        assertThatThrownBy(() -> PendingScripts.of(SHOP, List.of(edited, V2), List.of(applied(V1))))
                .isInstanceOf(MigrationException.class)
                .hasMessage("V1__orders.sql of classpath:db/shop changed after it was applied (checksum "
                        + edited.checksum() + ", baton_schema_history_db_shop recorded " + V1.checksum()
                        + "): put it back as it was and make the change in a script of a new version");
    }

    @Test
    void aChangedScriptOfTheLedgerStaysApplied() {
        MigrationScript edited = MigrationScript.of("V1__orders.sql", "CREATE TABLE orders (id int);");

        assertThat(PendingScripts.of(MigrationLocation.LEDGER, List.of(edited, V2), List.of(applied(V1))))
                .containsExactly(V2);
    }

    private static AppliedScript applied(MigrationScript script) {
        return new AppliedScript(script.version(), script.path(), script.checksum());
    }
}
