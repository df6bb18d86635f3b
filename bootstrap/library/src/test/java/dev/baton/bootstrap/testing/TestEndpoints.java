package dev.baton.bootstrap.testing;

import dev.baton.bootstrap.local.LocalPostgres;
import dev.baton.bootstrap.local.LocalRedis;
import java.util.Locale;
import java.util.UUID;

/**
 * Real servers for bootstrap's tests, the CLI and fault-injection ITs included: {@code BATON_TEST_REDIS_URI} and
 * {@code BATON_TEST_JDBC_URL} when set (CI sets both), else throwaway servers started by {@code baton dev}'s own
 * launchers ({@link LocalRedis}, {@link LocalPostgres}: installed binaries, else the bundled ones; as root, PostgreSQL
 * runs as the {@code postgres} user), once per test JVM. If neither works the test fails with a message saying how to
 * provide one; it never skips.
 *
 * <p>The servers are shared: tests isolate themselves with {@link #unique} queue names and schemas and never restart
 * or stop them. A test that needs to restart a server starts a private one (the fault suite's {@code PrivateRedis} and
 * {@code PrivatePostgres}).
 */
public final class TestEndpoints {
    private static String redisUri;
    private static String jdbcUrl;

    private TestEndpoints() {
    }

    public static synchronized String redisUri() {
        if (redisUri == null) {
            redisUri = configured("BATON_TEST_REDIS_URI");
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
            jdbcUrl = configured("BATON_TEST_JDBC_URL");
            if (jdbcUrl == null) {
                jdbcUrl = start("PostgreSQL",
                        "BATON_TEST_JDBC_URL='jdbc:postgresql://127.0.0.1:5432/test?user=postgres'",
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

    /** The variable's value; {@code null} when it is unset or blank. */
    private static String configured(String variable) {
        String value = System.getenv(variable);
        return value == null || value.isBlank() ? null : value;
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
