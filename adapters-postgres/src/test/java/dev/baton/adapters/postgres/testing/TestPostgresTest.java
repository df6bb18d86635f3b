package dev.baton.adapters.postgres.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.Test;

/**
 * The embedded fallback (used when neither {@code BATON_TEST_JDBC_URL} nor Docker is there) must work on this machine,
 * where the tests run as root, which PostgreSQL itself refuses: zonky then runs the server as {@code nobody}.
 */
class TestPostgresTest {

    @Test
    void theEmbeddedFallbackServesQueries() throws Exception {
        String url = TestPostgres.startEmbedded();

        int answer = Jdbi.create(url).withHandle(handle -> handle.createQuery("SELECT 6 * 7").mapTo(int.class).one());

        assertThat(answer).isEqualTo(42);
    }
}
