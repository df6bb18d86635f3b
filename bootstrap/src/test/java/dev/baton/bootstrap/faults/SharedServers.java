package dev.baton.bootstrap.faults;

/**
 * The shared Redis and PostgreSQL that tests isolate themselves in (unique queue names, a schema per test). They are
 * never restarted: a fault that restarts a server starts a {@link PrivateRedis} or {@link PrivatePostgres} instead.
 */
record SharedServers(String redisUri, String jdbcUrl) {

    static SharedServers fromEnvironment() {
        String redis = System.getenv("BATON_TEST_REDIS_URI");
        String jdbc = System.getenv("BATON_TEST_JDBC_URL");
        if (redis == null || redis.isBlank() || jdbc == null || jdbc.isBlank()) {
            throw new IllegalStateException("""
                    The fault-injection suite needs a Redis and a PostgreSQL server: set
                      BATON_TEST_REDIS_URI=redis://127.0.0.1:6379
                      BATON_TEST_JDBC_URL='jdbc:postgresql://127.0.0.1:5432/test?user=postgres'
                    (`.ci/run` installs and starts both). Faults that restart a server start private ones from
                    redis-server and /usr/lib/postgresql/*/bin on free ports and never touch these.""");
        }
        return new SharedServers(redis, jdbc);
    }
}
