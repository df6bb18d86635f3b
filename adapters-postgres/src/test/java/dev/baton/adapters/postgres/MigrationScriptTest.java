package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MigrationScriptTest {

    @Test
    void theNameGivesTheVersionAndTheDescription() {
        MigrationScript script = MigrationScript.of("orders/V1_1__shipment_carrier_idx.sql", "SELECT 1;");

        assertThat(script.version()).isEqualTo(ScriptVersion.parse("1.1"));
        assertThat(script.description()).isEqualTo("shipment carrier idx");
        assertThat(script.path()).isEqualTo("orders/V1_1__shipment_carrier_idx.sql");
    }

    @Test
    void aScriptNotNamedLikeAVersionedOneIsRefusedByName() {
        for (String name : new String[] {"V1_shipments.sql", "v1__shipments.sql", "R__views.sql", "V1a__x.sql",
                "beforeMigrate.sql", "V__x.sql"}) {
            assertThatThrownBy(() -> MigrationScript.of("sql/" + name, ""))
                    .isInstanceOf(MigrationException.class)
                    .hasMessageStartingWith("sql/" + name + " is not named like a versioned script");
        }
    }

    /** Flyway's rule; FlywayHistoryTest compares the numbers with Flyway's own for every script of the ledger. */
    @Test
    void theChecksumIsFlywaysOverTheLinesWithoutLineBreaks() {
        MigrationScript unix = MigrationScript.of("V1__a.sql", "CREATE TABLE a (id int);\nSELECT 1;\n");
        MigrationScript windows = MigrationScript.of("V1__a.sql", "\uFEFFCREATE TABLE a (id int);\r\nSELECT 1;");

        assertThat(unix.checksum()).isEqualTo(windows.checksum());
        assertThat(MigrationScript.of("V1__a.sql", "SELECT 2;").checksum()).isNotEqualTo(unix.checksum());
    }

    @Test
    void theDefaultSchemaPlaceholderIsReplacedByTheSchema() {
        MigrationScript script = MigrationScript.of("V1__a.sql",
                "SELECT hashtext('${flyway:defaultSchema}'), \"${flyway:defaultSchema}\".f();");

        assertThat(script.sqlFor("shop")).isEqualTo("SELECT hashtext('shop'), \"shop\".f();");
    }

    @Test
    void anyOtherPlaceholderIsRefusedNamingIt() {
        MigrationScript script = MigrationScript.of("V2__grants.sql", "GRANT SELECT ON t TO ${reader};");

        assertThatThrownBy(() -> script.sqlFor("shop")).isInstanceOf(MigrationException.class)
                .hasMessage("V2__grants.sql uses the placeholder ${reader}, which has no value: a script may use"
                        + " ${flyway:defaultSchema} only");
    }
}
