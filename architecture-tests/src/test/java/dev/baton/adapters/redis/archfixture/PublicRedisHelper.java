package dev.baton.adapters.redis.archfixture;

/** Broken on purpose: an adapter's internals are package-private. */
public class PublicRedisHelper {
}
