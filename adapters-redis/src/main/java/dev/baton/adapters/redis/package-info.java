/**
 * The Redis adapter: the stream transport, the schedule fires and the transport memory on Redis Streams, through
 * Lettuce and Lua scripts kept as resources. {@code RedisAdapter} is its one public class and builds the
 * package-private rest. Lettuce is used here only; its exceptions leave as {@code TransportException}.
 */
package dev.baton.adapters.redis;
