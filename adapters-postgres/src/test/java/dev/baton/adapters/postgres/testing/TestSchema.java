package dev.baton.adapters.postgres.testing;

import dev.baton.adapters.postgres.PostgresAdapter;
import java.util.UUID;
import org.jdbi.v3.core.Jdbi;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A schema of its own for one test class on the {@link TestPostgres} server, dropped (with everything in it) after the
 * class: {@code @RegisterExtension static final TestSchema SCHEMA = new TestSchema();}. The adapter's migrations
 * create it.
 */
public final class TestSchema implements BeforeAllCallback, AfterAllCallback {
    private final String name = "baton_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    public String name() {
        return name;
    }

    public String jdbcUrl() {
        return TestPostgres.jdbcUrl();
    }

    /** The adapter's configuration for this schema, with a small pool (the test server is shared). */
    public PostgresAdapter.Config config() {
        return PostgresAdapter.Config.of(jdbcUrl()).withSchema(name).withPoolSize(10);
    }

    /** Direct access for assertions and set-up, outside the adapter (each handle is a new connection). */
    public Jdbi jdbi() {
        return Jdbi.create(jdbcUrl());
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (registeringClass(context)) {
            drop();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (registeringClass(context)) {
            drop();
        }
    }

    /** JUnit calls back for each {@code @Nested} class too; those share their outer class's schema. */
    private static boolean registeringClass(ExtensionContext context) {
        return context.getParent().flatMap(ExtensionContext::getTestClass).isEmpty();
    }

    private void drop() {
        jdbi().useHandle(handle -> handle.execute("DROP SCHEMA IF EXISTS " + name + " CASCADE"));
    }
}
