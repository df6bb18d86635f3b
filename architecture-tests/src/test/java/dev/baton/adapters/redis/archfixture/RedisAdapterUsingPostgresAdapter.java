package dev.baton.adapters.redis.archfixture;

import dev.baton.adapters.postgres.PostgresAdapter;

/** Broken on purpose: adapters never depend on each other. */
public class RedisAdapterUsingPostgresAdapter {
    PostgresAdapter postgres;
}
