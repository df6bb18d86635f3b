package dev.baton.adapters.redis.archfixture;

import org.jdbi.v3.core.Jdbi;

/** Broken on purpose: Jdbi belongs to the Postgres adapter. */
public class RedisAdapterUsingJdbi {
    Jdbi jdbi;
}
