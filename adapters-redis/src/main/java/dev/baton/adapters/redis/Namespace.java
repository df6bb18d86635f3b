package dev.baton.adapters.redis;

import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import java.util.regex.Pattern;

/**
 * The prefix of every Redis key of Baton's: a queue's keys are {@code <namespace>:{<queue>}:<name>}, the others
 * {@code <namespace>:<name>}. Services that share a Redis under different namespaces never see each other's queues.
 * The default, {@code baton}, is the layout of every release before namespaces.
 *
 * <p>Letters, digits, {@code .}, {@code _} and {@code -} only: a brace would become the hash tag of every key in a
 * Redis Cluster (the first {@code {…}} of a key is its tag), and a colon would make one namespace a prefix of another
 * ({@code SCAN MATCH a:*} would list the keys of {@code a:b} too). Neither is a glob character, so the namespace goes
 * into a {@code SCAN} pattern as it is.
 */
record Namespace(String value) {
    private static final Pattern VALID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");
    static final Namespace DEFAULT = new Namespace(RedisAdapter.Config.DEFAULT_NAMESPACE);

    Namespace {
        if (value == null || !VALID.matcher(value).matches()) {
            throw new InvalidValueException("namespace '" + value + "' is not usable: a namespace is 1..64 "
                    + "letters, digits, '.', '_' or '-', starting with a letter or digit (a brace would become the "
                    + "Redis Cluster hash tag of every key, and a colon would make one namespace a prefix of another)");
        }
    }

    /** A key in slot {@code {tag}}: {@code <namespace>:{<tag>}:<name>}. */
    String key(String tag, String name) {
        return value + ":{" + tag + "}:" + name;
    }

    /** The hash holding the queue's metadata (its partition count); absent means one partition. */
    byte[] meta(QueueName queue) {
        return Utf8.bytes(key(queue.value(), "meta"));
    }

    /** The key whose presence pauses the queue (all its partitions): in the slot of {@link #meta}. */
    byte[] paused(QueueName queue) {
        return Utf8.bytes(key(queue.value(), "paused"));
    }

    /** The sorted set of cancelled job ids, scored by the cancel's time: in the slot of {@link #meta}. */
    byte[] cancelled(QueueName queue) {
        return Utf8.bytes(key(queue.value(), "cancelled"));
    }

    /** A key of this namespace outside every queue's slot: {@code <namespace>:<name>}. */
    byte[] global(String name) {
        return Utf8.bytes(value + ":" + name);
    }

    /** The {@code SCAN} pattern of every stream key of this namespace (partitions included). */
    String streamPattern() {
        return value + ":{*}:stream";
    }

    /** Matches a stream key of this namespace; group 1 is the queue's name. */
    Pattern streamKey() {
        return Pattern.compile(Pattern.quote(value) + ":\\{([A-Za-z0-9._-]+)(?::\\d+)?}:stream");
    }

    @Override
    public String toString() {
        return value;
    }
}
