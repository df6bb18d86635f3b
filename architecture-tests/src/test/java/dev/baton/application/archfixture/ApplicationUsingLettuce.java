package dev.baton.application.archfixture;

import io.lettuce.core.RedisClient;

/** Broken on purpose: Lettuce belongs to the Redis adapter. */
public class ApplicationUsingLettuce {
    RedisClient client;
}
