package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.postgres.testing.TestDatabase;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.postgresql.ds.PGSimpleDataSource;

/** Baton writes only into its schema: a role that may create nothing but in the schema it owns migrates it. */
class SchemaOwnerTest {
    private static final String SCHEMA = "baton";
    private static final String ROLE = "baton_test_owner_" + UUID.randomUUID().toString().replace("-", "")
            .substring(0, 12);

    @RegisterExtension
    static final TestDatabase DATABASE = new TestDatabase();

    @Test
    void aRoleOwningOnlyTheSchemaMigratesIt() {
        DATABASE.jdbi().useHandle(handle -> handle.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC; CREATE ROLE "
                + ROLE + " LOGIN PASSWORD 'owner'; CREATE SCHEMA " + SCHEMA + " AUTHORIZATION " + ROLE));
        try {
            PGSimpleDataSource owner = new PGSimpleDataSource();
            owner.setURL(DATABASE.jdbcUrl());
            owner.setUser(ROLE);
            owner.setPassword("owner");

            new Migrations(owner, SCHEMA, List.of(DemoShipments.LOCATION), "test").apply();

            List<String> tables = DATABASE.jdbi().withHandle(handle -> handle.createQuery("SELECT table_name FROM"
                    + " information_schema.tables WHERE table_schema = :schema").bind("schema", SCHEMA)
                    .mapTo(String.class).list());
            assertThat(tables).contains("job_outcomes", "demo_shipments", MigrationLocation.LEDGER_HISTORY_TABLE,
                    MigrationLocation.historyTable(DemoShipments.LOCATION));
        } finally {
            // a role belongs to the whole server: it goes with what it owns here
            DATABASE.jdbi().useHandle(handle -> handle.execute("DROP OWNED BY " + ROLE + "; DROP ROLE " + ROLE));
        }
    }
}
