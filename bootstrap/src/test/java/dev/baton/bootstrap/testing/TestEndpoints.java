package dev.baton.bootstrap.testing;

import dev.baton.bootstrap.local.LocalPostgres;
import dev.baton.bootstrap.local.LocalRedis;
import java.util.Locale;
import java.util.UUID;

/**
 * Real servers for bootstrap's tests: {@code BATON_TEST_REDIS_URI} and {@code BATON_TEST_JDBC_URL} when set (CI sets
 * both), else throwaway servers started by {@code baton dev}'s own launchers (once per test JVM). If neither works
 * the test fails with a message saying how to provide one; it never skips.
 */
public final class TestEndpoints {
    private static String redisUri;
    private static String jdbcUrl;

    private TestEndpoints() {
    }

    public static synchronized String redisUri() {
        if (redisUri == null) {
            redisUri = System.getenv("BATON_TEST_REDIS_URI");
            if (redisUri == null) {
                redisUri = start("Redis", "BATON_TEST_REDIS_URI=redis://127.0.0.1:6379", () -> {
                    LocalRedis redis = LocalRedis.start();
                    Runtime.getRuntime().addShutdownHook(new Thread(redis::close));
                    return redis.uri();
                });
            }
        }
        return redisUri;
    }

    public static synchronized String jdbcUrl() {
        if (jdbcUrl == null) {
            jdbcUrl = System.getenv("BATON_TEST_JDBC_URL");
            if (jdbcUrl == null) {
                jdbcUrl = start("PostgreSQL", "BATON_TEST_JDBC_URL='jdbc:postgresql://127.0.0.1:5432/test?user=postgres'",
                        () -> {
                            LocalPostgres postgres = LocalPostgres.start();
                            Runtime.getRuntime().addShutdownHook(new Thread(postgres::close));
                            return postgres.jdbcUrl();
                        });
            }
        }
        return jdbcUrl;
    }

    /** A fresh name for a queue or schema, so that test classes never see each other's state. */
    public static String unique(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 10).toLowerCase(Locale.ROOT);
    }

    private interface Starter {
        String start();
    }

    private static String start(String what, String hint, Starter starter) {
        try {
            return starter.start();
        } catch (RuntimeException e) {
            throw new AssertionError("no " + what + " for the tests: set " + hint + " or install " + what
                    + " binaries (" + e.getMessage() + ")", e);
        }
    }
}
