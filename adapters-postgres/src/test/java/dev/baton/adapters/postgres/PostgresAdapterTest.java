package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.baton.adapters.postgres.PostgresAdapter.Config;
import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Retention;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class PostgresAdapterTest {
    private static final String SECRET = "s3cr3t-Pa55";
    @RegisterExtension
    static final TestSchema SCHEMA = new TestSchema();

    @Test
    void defaultsAreTheDocumentedOnes() {
        Config config = Config.of("jdbc:postgresql://db:5432/app?user=baton");

        assertThat(config.schema()).isEqualTo("baton");
        assertThat(config.poolSize()).isEqualTo(10);
        assertThat(config.migrateOnStart()).isTrue();
        assertThat(config.retention()).isEqualTo(Retention.DEFAULT);
        assertThat(config.extraMigrationLocations()).isEmpty();
    }

    @Test
    void aBadUrlIsRejectedNamingTheSettingWithoutItsPassword() {
        assertThatThrownBy(() -> Config.of(null)).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("BATON_JDBC_URL is required");
        assertThatThrownBy(() -> Config.of("jdbc:mysql://db/app?user=baton&password=" + SECRET))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("BATON_JDBC_URL must start with jdbc:postgresql:")
                .hasMessageContaining("password=***")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> Config.of("jdbc:postgresql://baton:" + SECRET + "@db:5432/app"))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("BATON_JDBC_URL cannot carry user:password@")
                .hasMessageContaining("//baton:***@db")
                .hasMessageNotContaining(SECRET);
        assertThatThrownBy(() -> Config.of("jdbc:postgresql://db:port/app?password=" + SECRET))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("BATON_JDBC_URL is not a valid PostgreSQL JDBC URL")
                .hasMessageNotContaining(SECRET);
    }

    @Test
    void aBadSchemaOrPoolSizeIsRejectedNamingTheSetting() {
        Config config = Config.of("jdbc:postgresql://db/app");

        for (String schema : new String[] {"Baton", "1baton", "pg_baton", "baton; drop", ""}) {
            assertThatThrownBy(() -> config.withSchema(schema)).isInstanceOf(InvalidValueException.class)
                    .hasMessageStartingWith("BATON_SCHEMA must be a lower-case PostgreSQL identifier");
        }
        assertThatThrownBy(() -> config.withPoolSize(0)).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("pool size");
        assertThatThrownBy(() -> config.withExtraMigrationLocations(List.of("classpath:db/a-b", "classpath:db/a_b")))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("baton_schema_history_db_a_b");
    }

    @Test
    void theConfigNeverPrintsThePassword() {
        Config config = Config.of("jdbc:postgresql://db/app?user=baton&password=" + SECRET + "&ssl=true");

        assertThat(config.toString()).doesNotContain(SECRET).contains("password=***&ssl=true");
        assertThat(JdbcUrls.masked("jdbc:postgresql://db/app;PASSWORD=" + SECRET)).doesNotContain(SECRET);
        assertThat(JdbcUrls.masked("jdbc:postgresql://u:p@ss" + SECRET + "@db/app")).doesNotContain(SECRET);
    }

    @Test
    void theLedgerRetentionMustCoverTheStreamRetention() {
        Config config = Config.of("jdbc:postgresql://db/app").withRetention(new Retention(Duration.ofHours(12)));

        config.requireCovers(new Retention(Duration.ofHours(12)));
        assertThatThrownBy(() -> config.requireCovers(new Retention(Duration.ofDays(1))))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("PT12H")
                .hasMessageContaining("PT24H")
                .hasMessageContaining("late redelivery");
    }

    @Test
    void anUnreachableServerFailsFastNamingTheSettingButNoPassword() {
        Config config = Config.of("jdbc:postgresql://127.0.0.1:1/app?user=baton&password=" + SECRET);

        assertThatThrownBy(() -> PostgresAdapter.open(config, Clock.systemUTC()))
                .isInstanceOf(LedgerUnavailableException.class)
                .hasMessageContaining("BATON_JDBC_URL")
                .hasMessageContaining("127.0.0.1:1")
                .satisfies(failure -> {
                    for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
                        assertThat(String.valueOf(cause.getMessage())).doesNotContain(SECRET);
                    }
                });
    }

    @Test
    void reachableWhileOpenNotAfterClose() {
        PostgresAdapter adapter = PostgresAdapter.open(SCHEMA.config().withPoolSize(1), Clock.systemUTC());

        assertThat(adapter.isReachable()).isTrue();
        adapter.close();
        assertThat(adapter.isReachable()).isFalse();
    }

    @Test
    void itMigratesThroughTheApplicationsDataSourceAndLeavesItOpen() {
        String schema = SCHEMA.name() + "_app";
        HikariConfig hikari = new HikariConfig();
        hikari.setJdbcUrl(SCHEMA.config().jdbcUrl());
        hikari.setMaximumPoolSize(1); // the migrations take one connection while they run
        try (HikariDataSource application = new HikariDataSource(hikari)) {
            PostgresAdapter adapter = PostgresAdapter.open(SCHEMA.config().withSchema(schema)
                    .withTransactionTimeout(Duration.ofMinutes(1)), application, Clock.systemUTC());
            assertThat(schemaExists(schema)).as("migrated on open").isTrue();

            adapter.close();

            assertThat(application.isClosed()).isFalse();
            assertThat(adapter.isReachable()).as("the application's pool still serves it").isTrue();
            adapter.dropSchema();
        }
    }

    @Test
    void dropSchemaRemovesTheSchemaWithItsTables() {
        String throwaway = SCHEMA.name() + "_drop";
        try (PostgresAdapter adapter = PostgresAdapter.open(SCHEMA.config().withSchema(throwaway), Clock.systemUTC())) {
            adapter.migrate();
            assertThat(schemaExists(throwaway)).isTrue();

            adapter.dropSchema();
        }

        assertThat(schemaExists(throwaway)).isFalse();
    }

    private static boolean schemaExists(String name) {
        return SCHEMA.jdbi().withHandle(handle -> handle
                .createQuery("SELECT count(*) FROM pg_namespace WHERE nspname = :name").bind("name", name)
                .mapTo(int.class).one()) == 1;
    }
}
