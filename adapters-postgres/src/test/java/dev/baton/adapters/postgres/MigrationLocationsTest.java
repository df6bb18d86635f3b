package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.adapters.postgres.testing.TestSchema;
import dev.baton.domain.BatonException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

/** Extra migration locations as users give them: their scripts, their errors, their histories. */
class MigrationLocationsTest {
    @RegisterExtension
    static final TestSchema ORDERED = new TestSchema();
    @RegisterExtension
    static final TestSchema JARRED = new TestSchema();
    @RegisterExtension
    static final TestSchema MISNAMED = new TestSchema();
    @RegisterExtension
    static final TestSchema DUPLICATED = new TestSchema();
    @RegisterExtension
    static final TestSchema FAILING = new TestSchema();
    @RegisterExtension
    static final TestSchema CHANGED = new TestSchema();
    @RegisterExtension
    static final TestSchema PLACED = new TestSchema();
    @RegisterExtension
    static final TestSchema NOT_EMPTY = new TestSchema();

    @TempDir
    Path directory;

    @Test
    void scriptsRunInVersionOrderFromEverySubDirectory() throws IOException {
        write("V1__steps.sql", "CREATE TABLE steps (position int GENERATED ALWAYS AS IDENTITY, version text);"
                + " INSERT INTO steps (version) VALUES ('1');");
        write("V10__ten.sql", "INSERT INTO steps (version) VALUES ('10');");
        write("V2__two.sql", "INSERT INTO steps (version) VALUES ('2');");
        write("V1_1__one_point_one.sql", "INSERT INTO steps (version) VALUES ('1.1');");
        write("later/V3__three.sql", "INSERT INTO steps (version) VALUES ('3');");
        write("README.md", "not a script: left alone");

        migrate(ORDERED, location());

        assertThat(rows(ORDERED, "SELECT version FROM " + ORDERED.name() + ".steps ORDER BY position"))
                .containsExactly("1", "1.1", "2", "3", "10");
        assertThat(history(ORDERED, MigrationLocation.historyTable(location()))).containsExactly(
                "1|steps|V1__steps.sql", "1.1|one point one|V1_1__one_point_one.sql", "2|two|V2__two.sql",
                "3|three|later/V3__three.sql", "10|ten|V10__ten.sql");
    }

    @Test
    void aClassPathDirectoryInsideAJarIsRead() throws IOException {
        Path jar = directory.resolve("handlers.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (String folder : List.of("db/", "db/jarred/")) {
                out.putNextEntry(new JarEntry(folder));
            }
            out.putNextEntry(new JarEntry("db/jarred/V1__jarred.sql"));
            out.write("CREATE TABLE jarred (id int);".getBytes(StandardCharsets.UTF_8));
        }
        ClassLoader original = Thread.currentThread().getContextClassLoader();
        try (URLClassLoader handlers = new URLClassLoader(new URL[] {jar.toUri().toURL()}, original)) {
            Thread.currentThread().setContextClassLoader(handlers); // the caller's class path, as Flyway read it

            migrate(JARRED, "classpath:db/jarred");
        } finally {
            Thread.currentThread().setContextClassLoader(original);
        }

        assertThat(tables(JARRED)).contains("jarred", "baton_schema_history_db_jarred");
    }

    @Test
    void aMisnamedScriptFailsTheStartNamingItAndRunsNothing() throws IOException {
        write("V1__first.sql", "CREATE TABLE first (id int);");
        write("V2-second.sql", "CREATE TABLE second (id int);");

        assertThatThrownBy(() -> migrate(MISNAMED, location())).isInstanceOf(BatonException.class)
                .hasMessage("migrating schema " + MISNAMED.name() + " at test failed: location " + location() + ": "
                        + "V2-second.sql is not named like a versioned script, V<version>__<description>.sql (for"
                        + " example V1__shipments.sql or V1_1__shipment_index.sql)");
        assertThat(tables(MISNAMED)).isEmpty();
    }

    @Test
    void twoScriptsOfOneVersionFailTheStartNamingBoth() throws IOException {
        write("V1__first.sql", "CREATE TABLE first (id int);");
        write("V1_0__also_first.sql", "CREATE TABLE also_first (id int);");

        assertThatThrownBy(() -> migrate(DUPLICATED, location())).isInstanceOf(BatonException.class)
                .hasMessageEndingWith("location " + location() + " holds two scripts of version 1:"
                        + " V1_0__also_first.sql and V1__first.sql");
        assertThat(tables(DUPLICATED)).isEmpty();
    }

    @Test
    void aFailingScriptIsRolledBackAndNamedWithItsError() throws IOException {
        write("V1__first.sql", "CREATE TABLE first (id int);");
        write("V2__second.sql", "CREATE TABLE second (id int); SELECT * FROM no_such_table;");
        String url = FAILING.jdbcUrl().contains("password=") ? FAILING.jdbcUrl()
                : FAILING.jdbcUrl() + "&password=s3cret";
        Matcher password = Pattern.compile("password=([^&]*)").matcher(url);
        assertThat(password.find()).isTrue();
        PostgresAdapter.Config config = PostgresAdapter.Config.of(url).withSchema(FAILING.name()).withPoolSize(1)
                .withExtraMigrationLocations(List.of(location()));

        assertThatThrownBy(() -> PostgresAdapter.open(config, Clock.systemUTC())).isInstanceOf(BatonException.class)
                .hasMessageStartingWith("migrating schema " + FAILING.name() + " at " + JdbcUrls.masked(url)
                        + " failed: V2__second.sql of " + location() + " failed and was rolled back: ERROR: relation"
                        + " \"no_such_table\" does not exist")
                .hasMessageContaining("[SQLSTATE 42P01]")
                .message().doesNotContain(password.group(1));
        String history = MigrationLocation.historyTable(location());
        assertThat(tables(FAILING)).contains("job_outcomes", "first").doesNotContain("second");
        assertThat(history(FAILING, history)).containsExactly("1|first|V1__first.sql");

        write("V2__second.sql", "CREATE TABLE second (id int);"); // fixed: the next start applies it
        PostgresAdapter.open(config, Clock.systemUTC()).close();
        assertThat(tables(FAILING)).contains("second");
        assertThat(history(FAILING, history)).containsExactly("1|first|V1__first.sql", "2|second|V2__second.sql");
    }

    @Test
    void aScriptChangedAfterItWasAppliedFailsTheStart() throws IOException {
        write("V1__first.sql", "CREATE TABLE first (id int);");
        migrate(CHANGED, location());

        write("V1__first.sql", "CREATE TABLE first (id bigint);");

        assertThatThrownBy(() -> migrate(CHANGED, location())).isInstanceOf(BatonException.class)
                .hasMessageContaining("V1__first.sql of " + location() + " changed after it was applied");
    }

    @Test
    void theDefaultSchemaPlaceholderNamesTheSchemaBeingMigrated() throws IOException {
        write("V1__placed.sql", "CREATE TABLE \"${flyway:defaultSchema}\".placed (schema_name text"
                + " DEFAULT '${flyway:defaultSchema}');");

        migrate(PLACED, location());

        assertThat(rows(PLACED, "SELECT column_default FROM information_schema.columns WHERE table_schema = '"
                + PLACED.name() + "' AND table_name = 'placed'")).singleElement().asString()
                .contains("'" + PLACED.name() + "'");
    }

    @Test
    void aLocationsFirstRunIntoASchemaWithTablesAppliesItAll() throws IOException {
        NOT_EMPTY.jdbi().useHandle(handle -> handle.execute("CREATE SCHEMA " + NOT_EMPTY.name() + "; CREATE TABLE "
                + NOT_EMPTY.name() + ".legacy (id int); INSERT INTO " + NOT_EMPTY.name() + ".legacy VALUES (7)"));
        write("V1__first.sql", "CREATE TABLE first (id int);");

        migrate(NOT_EMPTY, location());

        assertThat(tables(NOT_EMPTY)).contains("legacy", "first", "job_outcomes");
        assertThat(rows(NOT_EMPTY, "SELECT id::text FROM " + NOT_EMPTY.name() + ".legacy")).containsExactly("7");
    }

    private String location() {
        return "filesystem:" + directory;
    }

    private void write(String path, String sql) throws IOException {
        Path file = directory.resolve(path);
        Files.createDirectories(file.getParent());
        try (OutputStream out = Files.newOutputStream(file)) {
            out.write(sql.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static void migrate(TestSchema schema, String location) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(schema.jdbcUrl());
        new Migrations(dataSource, schema.name(), List.of(location), "test").apply();
    }

    /** version|description|script of each row, in the order applied. */
    private static List<String> history(TestSchema schema, String table) {
        return rows(schema, "SELECT version || '|' || description || '|' || script FROM " + schema.name() + "."
                + table + " ORDER BY installed_rank");
    }

    private static List<String> rows(TestSchema schema, String query) {
        return schema.jdbi().withHandle(handle -> handle.createQuery(query).mapTo(String.class).list());
    }

    private static List<String> tables(TestSchema schema) {
        return schema.jdbi().withHandle(handle -> handle
                .createQuery("SELECT table_name FROM information_schema.tables WHERE table_schema = :schema")
                .bind("schema", schema.name()).mapTo(String.class).list());
    }
}
