package dev.baton.bootstrap.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code baton dev}'s throwaway servers start from every binary source, as root (through an unprivileged user) and
 * as a normal user, and are gone after close.
 */
class LocalServersTest {

    @ParameterizedTest(name = "embedded only: {0}")
    @ValueSource(booleans = {false, true})
    void redisAnswersAndStops(boolean embeddedOnly) throws IOException {
        String uri;
        try (LocalRedis redis = LocalRedis.start(embeddedOnly)) {
            uri = redis.uri();
            assertThat(redis.origin()).endsWith(embeddedOnly ? "embedded-redis" : "/redis-server");
            assertThat(ping(uri)).isEqualTo("+PONG");
        }
        assertThat(refused(uri)).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = LocalPostgres.Binaries.class, names = {"INSTALLED", "BUNDLED"})
    void postgresAnswersAndStops(LocalPostgres.Binaries binaries) throws SQLException {
        String url;
        try (LocalPostgres postgres = LocalPostgres.start(binaries)) {
            url = postgres.jdbcUrl();
            assertThat(postgres.origin()).contains(binaries == LocalPostgres.Binaries.BUNDLED ? "binaries" : "/usr/");
            try (Connection connection = DriverManager.getConnection(url);
                 ResultSet rows = connection.createStatement().executeQuery("select current_user, version()")) {
                rows.next();
                assertThat(rows.getString(1)).isEqualTo("postgres");
            }
        }
        String stopped = url;
        assertThat(refused(URI.create(stopped.substring("jdbc:".length())).toString())).isTrue();
    }

    private static String ping(String uri) throws IOException {
        URI parsed = URI.create(uri);
        try (Socket socket = new Socket(parsed.getHost(), parsed.getPort())) {
            OutputStream out = socket.getOutputStream();
            out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            byte[] reply = new byte[5];
            int read = in.readNBytes(reply, 0, 5);
            return new String(reply, 0, read, StandardCharsets.US_ASCII);
        }
    }

    private static boolean refused(String uri) {
        URI parsed = URI.create(uri);
        try (Socket socket = new Socket(parsed.getHost(), parsed.getPort())) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }
}
