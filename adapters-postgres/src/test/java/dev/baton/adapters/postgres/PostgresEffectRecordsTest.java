package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.port.out.EffectRecords;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.InvalidValueException;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresEffectRecordsTest {
    @RegisterExtension
    static final TestSchema SCHEMA = new TestSchema();
    private static final String TABLE = "demo_shipments";

    @Test
    void anEffectThatRanTwiceShowsAsMoreRowsThanJobs() {
        try (PostgresAdapter adapter = withShipments("twice-1", "twice-2", "twice-2", "twice-3")) {
            EffectRecords.Count count = adapter.effectRecords().count(TABLE, "twice-");

            assertThat(count).isEqualTo(new EffectRecords.Count(TABLE, 4, 3));
            assertThat(count.oncePerJob(3)).isFalse();
        }
    }

    @Test
    void onlyTheJobsOfThePrefixCountAndItsWildcardsMatchThemselves() {
        try (PostgresAdapter adapter = withShipments("run_a-1", "run_a-2", "runxa-1", "run_a", "other-run_a-1")) {
            assertThat(adapter.effectRecords().count(TABLE, "run_a-")).isEqualTo(new EffectRecords.Count(TABLE, 2, 2));
            assertThat(adapter.effectRecords().count(TABLE, "run%")).isEqualTo(new EffectRecords.Count(TABLE, 0, 0));
        }
    }

    @Test
    void aTableNameThatIsNoPlainIdentifierIsRefused() {
        try (PostgresAdapter adapter = withShipments()) {
            for (String table : new String[] {"demo_shipments; drop table x", "Demo_Shipments", "a.b", ""}) {
                assertThatThrownBy(() -> adapter.effectRecords().count(table, "x-"))
                        .isInstanceOf(InvalidValueException.class)
                        .hasMessageContaining("lower-case PostgreSQL identifier");
            }
        }
    }

    @Test
    void aStoreThatCannotBeReadIsReportedAsUnavailable() {
        PostgresAdapter closed = withShipments();
        closed.close();

        assertThatThrownBy(() -> closed.effectRecords().count(TABLE, "x-"))
                .isInstanceOf(LedgerUnavailableException.class)
                .hasMessageContaining("could not count the rows of " + SCHEMA.name() + "." + TABLE);
    }

    /** An adapter on the test schema, whose demo_shipments table holds a row for each of {@code jobIds}. */
    private static PostgresAdapter withShipments(String... jobIds) {
        PostgresAdapter adapter = PostgresAdapter.open(
                SCHEMA.config().withExtraMigrationLocations(List.of(DemoShipments.LOCATION)), Clock.systemUTC());
        SCHEMA.jdbi().useHandle(handle -> {
            for (String jobId : jobIds) {
                handle.createUpdate("INSERT INTO " + SCHEMA.name() + "." + TABLE + " (order_id, job_id, shipped_at)"
                        + " VALUES ('order', :job, now())").bind("job", jobId).execute();
            }
        });
        return adapter;
    }
}
