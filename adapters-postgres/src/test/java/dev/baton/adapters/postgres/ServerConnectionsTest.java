package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.postgres.testing.TestSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class ServerConnectionsTest {
    @RegisterExtension
    static final TestSchema SCHEMA = new TestSchema();

    @Test
    void readsTheServersLimitsForThisUser() {
        ServerConnections read = SCHEMA.jdbi().withHandle(ServerConnections::read);
        int max = SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SHOW max_connections").mapTo(Integer.class)
                .one());
        int reserved = SCHEMA.jdbi().withHandle(handle -> handle.createQuery("SHOW superuser_reserved_connections")
                .mapTo(Integer.class).one());

        assertThat(read.maxConnections()).isEqualTo(max);
        assertThat(read.reservedForSuperusers()).isEqualTo(reserved);
        assertThat(read.refusing(read.forThisUser())).isEmpty();
        assertThat(read.refusing(read.forThisUser() + 1)).get().asString()
                .startsWith("BATON_POOL_SIZE " + (read.forThisUser() + 1) + " is more connections than PostgreSQL");
    }

    @Test
    void onlySuperusersMayUseTheReservedSlots() {
        ServerConnections user = new ServerConnections(100, 3, false);
        ServerConnections superuser = new ServerConnections(100, 3, true);

        assertThat(user.refusing(97)).isEmpty();
        assertThat(user.refusing(98)).get().asString().contains("(97: max_connections 100, less 3"
                + " superuser_reserved_connections)", "lower BATON_POOL_SIZE or BATON_CONCURRENCY");
        assertThat(superuser.refusing(100)).isEmpty();
        assertThat(superuser.refusing(101)).get().asString().contains("(100: max_connections 100)");
    }
}
