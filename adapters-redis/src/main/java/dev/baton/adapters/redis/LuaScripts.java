package dev.baton.adapters.redis;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The adapter's Lua scripts: loaded once with SCRIPT LOAD, run with EVALSHA, loaded again when Redis forgot them
 * (NOSCRIPT after a restart or SCRIPT FLUSH). On a cluster, Lettuce sends SCRIPT LOAD to every node and EVALSHA to
 * the node of the script's first key, so a node that never saw a script (new, or promoted) gets it on its NOSCRIPT.
 */
final class LuaScripts {

    enum Script {
        ACKNOWLEDGE, RETRY_LATER, DEAD_LETTER(Fragment.RELEASE_UNIQUENESS), EXTEND_LEASES, ISOLATE,
        RECLAIM_ABANDONED(Fragment.RELEASE_UNIQUENESS), LEASE_OWN_PENDING, PROMOTE_DUE, REDRIVE, REMOVE_EMPTY_CONSUMERS,
        DECLARE_PARTITIONS, FORGET_ISOLATION, PURGE_DEAD_LETTERS, FIRE_SCHEDULE, SETTLE_SCHEDULE, PUBLISH_UNIQUE,
        DEAD_LETTER_UNPUBLISHED, RELEASE_LOCK, MAKE_DUE, REMOVE_DELAYED;

        /** Functions the script calls, defined in shared files put before its own text (Redis has no includes). */
        private final List<Fragment> fragments;

        Script(Fragment... fragments) {
            this.fragments = List.of(fragments);
        }

        private byte[] source() {
            ByteArrayOutputStream source = new ByteArrayOutputStream();
            for (Fragment fragment : fragments) {
                source.writeBytes(read(fragment.resource()));
            }
            source.writeBytes(read(name().toLowerCase(Locale.ROOT) + ".lua"));
            return source.toByteArray();
        }
    }

    enum Fragment {
        RELEASE_UNIQUENESS;

        private String resource() {
            return name().toLowerCase(Locale.ROOT) + ".lua";
        }
    }

    private final RedisClusterCommands<byte[], byte[]> redis;
    private final Map<Script, byte[]> sources;
    private final Map<Script, String> digests;

    private LuaScripts(RedisClusterCommands<byte[], byte[]> redis, Map<Script, byte[]> sources,
                       Map<Script, String> digests) {
        this.redis = redis;
        this.sources = sources;
        this.digests = digests;
    }

    static LuaScripts load(RedisClusterCommands<byte[], byte[]> redis) {
        Map<Script, byte[]> sources = new EnumMap<>(Script.class);
        Map<Script, String> digests = new EnumMap<>(Script.class);
        for (Script script : Script.values()) {
            byte[] source = script.source();
            sources.put(script, source);
            digests.put(script, redis.scriptLoad(source));
        }
        return new LuaScripts(redis, sources, digests);
    }

    <T> T run(Script script, ScriptOutputType type, byte[][] keys, byte[]... args) {
        try {
            return redis.evalsha(digests.get(script), type, keys, args);
        } catch (RedisNoScriptException e) {
            // the digest is the script's SHA1, so loading it again yields the same one
            redis.scriptLoad(sources.get(script));
            return redis.evalsha(digests.get(script), type, keys, args);
        }
    }

    /**
     * Sends a script without waiting for its reply, on {@code async}: to pipeline it with other commands of that
     * connection. A NOSCRIPT answer loads the script there and runs it again, still without blocking anyone.
     */
    <T> CompletableFuture<T> runAsync(RedisClusterAsyncCommands<byte[], byte[]> async, Script script,
                                      ScriptOutputType type, byte[][] keys, byte[]... args) {
        String digest = digests.get(script);
        return async.<T>evalsha(digest, type, keys, args).toCompletableFuture().exceptionallyCompose(failure -> {
            Throwable cause = failure instanceof CompletionException ? failure.getCause() : failure;
            if (!(cause instanceof RedisNoScriptException)) {
                return CompletableFuture.failedFuture(cause);
            }
            return async.scriptLoad(sources.get(script))
                    .thenCompose(loaded -> async.<T>evalsha(digest, type, keys, args)).toCompletableFuture();
        });
    }

    private static byte[] read(String resource) {
        try (InputStream in = LuaScripts.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read script " + resource, e);
        }
    }
}
