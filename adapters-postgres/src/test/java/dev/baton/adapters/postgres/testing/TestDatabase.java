package dev.baton.adapters.postgres.testing;

import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A database of its own on the {@link TestPostgres} server, created pristine (from {@code template0}) before the
 * test class and dropped after it: for tests that install extensions, which are per database, where other tests
 * sharing the server's database never meet them. {@code @RegisterExtension static final TestDatabase DB = ...}.
 */
public final class TestDatabase implements BeforeAllCallback, AfterAllCallback {
    private final String name = "baton_test_db_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    public String name() {
        return name;
    }

    /** The server's JDBC URL with this database in place of its own. */
    public String jdbcUrl() {
        return TestPostgres.jdbcUrl().replaceFirst("^(jdbc:postgresql://[^/?]+/)[^?]*", "$1" + name);
    }

    /** Direct access for assertions and set-up (each handle is a new connection). */
    public Jdbi jdbi() {
        return Jdbi.create(jdbcUrl());
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        server().useHandle(handle -> handle.execute("CREATE DATABASE " + name + " TEMPLATE template0"));
    }

    @Override
    public void afterAll(ExtensionContext context) {
        server().useHandle(handle -> handle.execute("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)"));
    }

    private static Jdbi server() {
        return Jdbi.create(TestPostgres.jdbcUrl());
    }
}
