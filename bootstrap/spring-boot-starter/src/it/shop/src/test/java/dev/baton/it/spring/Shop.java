package dev.baton.it.spring;

import dev.baton.bootstrap.json.JsonCodec;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * One run of the shop against the servers of BATON_TEST_REDIS_URI and BATON_TEST_JDBC_URL: schemas and a queue of
 * its own (the servers are shared), the application's tables created as its own migrations would, and its actuator
 * read over HTTP, the same on Spring Boot 3.5 and 4.
 */
final class Shop {
    final String run = UUID.randomUUID().toString().substring(0, 8);
    final String appSchema = "shop_it_" + run;
    final String batonSchema = "baton_it_" + run;
    final String queue = "shop-it-" + run;

    static String env(String name, String fallback) {
        return Optional.ofNullable(System.getenv(name)).filter(value -> !value.isBlank()).orElse(fallback);
    }

    static String jdbcUrl() {
        return env("BATON_TEST_JDBC_URL", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    }

    static String redisUri() {
        return env("BATON_TEST_REDIS_URI", "redis://127.0.0.1:6379");
    }

    /** The application's schema and tables, before the context starts. */
    Shop createTables() {
        try (Connection connection = DriverManager.getConnection(jdbcUrl());
             Statement statement = connection.createStatement();
             InputStream tables = Shop.class.getResourceAsStream("/shop-tables.sql")) {
            statement.execute("CREATE SCHEMA " + appSchema);
            statement.execute("SET search_path TO " + appSchema);
            statement.execute(new String(tables.readAllBytes(), StandardCharsets.UTF_8));
            return this;
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("cannot create the shop's tables in " + appSchema, e);
        }
    }

    /** The application's tables in its schema, Baton's in another, a queue of this run's own. */
    void properties(DynamicPropertyRegistry registry, String redisUri) {
        registry.add("spring.datasource.url", Shop::jdbcUrl);
        registry.add("spring.datasource.hikari.schema", () -> appSchema);
        registry.add("baton.redis-uri", () -> redisUri);
        registry.add("baton.schema", () -> batonSchema);
        registry.add("baton.worker.queues", () -> queue);
    }

    /** {@code /actuator/health/baton}: its HTTP status and its JSON, read with Baton's own codec. */
    static Health health(int port) {
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/health/baton")).build(),
                    HttpResponse.BodyHandlers.ofString());
            @SuppressWarnings("unchecked")
            Map<String, Object> json = (Map<String, Object>) JsonCodec.onClasspath().parse(response.body());
            return new Health(response.statusCode(), json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Health(int httpStatus, Map<String, Object> json) {
        String status() {
            return String.valueOf(json.get("status"));
        }

        @SuppressWarnings("unchecked")
        Map<String, Object> details() {
            return (Map<String, Object>) json.getOrDefault("details", Map.of());
        }
    }
}
