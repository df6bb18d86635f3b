package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;

import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.application.port.out.TransportException;
import dev.baton.domain.ConsumerName;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The consumer names live workers hold, as Redis client names: a claim is a connection of its own named
 * {@code <namespace>:<consumer>}, open while the worker runs. A process that ends, a crash included, closes its
 * connections and Redis forgets their names at once, so a restarted worker gets its name back. Claims are taken one
 * at a time under a short lock ({@code <namespace>:consumer-claims}), so that two workers starting together never
 * pick the same name. On a Cluster, Lettuce names the claim's connection to every node and the names are looked for
 * on every master.
 */
final class ConsumerClaims implements AutoCloseable {
    /** The lock's expiry: a process that died holding it delays the others' claims this long at most. */
    private static final Duration LOCK_EXPIRY = Duration.ofSeconds(10);
    private static final Duration LOCK_RETRY = Duration.ofMillis(20);
    private static final Pattern CLIENT_NAME = Pattern.compile("(?:^| )name=(\\S+)");

    private final Connector connector;
    private final Link connection;
    private final LuaScripts scripts;
    private final String prefix;
    private final byte[] lock;
    private final Map<ConsumerName, Link> held = new ConcurrentHashMap<>();

    ConsumerClaims(Connector connector, Link connection, LuaScripts scripts, Namespace namespace) {
        this.connector = connector;
        this.connection = connection;
        this.scripts = scripts;
        this.prefix = namespace.value() + ":";
        this.lock = namespace.global("consumer-claims");
    }

    /** {@code wanted}, or the first of {@code wanted-2}, {@code wanted-3}, … that no live worker holds. */
    ConsumerName claim(ConsumerName wanted) {
        byte[] token = Utf8.bytes(UUID.randomUUID().toString());
        takeLock(token);
        try {
            Set<ConsumerName> live = live();
            ConsumerName name = wanted;
            for (int n = 2; live.contains(name); n++) {
                name = wanted.numbered(n);
            }
            ConsumerName claimed = name;
            Link link = call("claim consumer name " + claimed, connector::connect);
            try {
                call("claim consumer name " + claimed, () -> link.sync().clientSetname(Utf8.bytes(prefix + claimed)));
            } catch (RuntimeException e) {
                link.close();
                throw e;
            }
            held.put(claimed, link);
            return claimed;
        } finally {
            call("release the consumer claims' lock", () -> scripts.<Long>run(Script.RELEASE_LOCK,
                    ScriptOutputType.INTEGER, new byte[][] {lock}, token));
        }
    }

    void release(ConsumerName name) {
        Link link = held.remove(name);
        if (link != null) {
            try {
                // Redis drops a closed connection from its client list a moment later: unnamed first, at once
                link.sync().clientSetname(new byte[0]);
            } catch (RuntimeException e) {
                // a broken connection is gone from the list already
            } finally {
                link.close();
            }
        }
    }

    /** The names that live workers of this namespace hold: on the server, or on every master of a Cluster. */
    Set<ConsumerName> live() {
        return call("read the live consumers' names", () -> {
            Set<ConsumerName> names = new HashSet<>();
            for (String clients : clientLists()) {
                Matcher name = CLIENT_NAME.matcher(clients);
                while (name.find()) {
                    if (name.group(1).startsWith(prefix) && name.group(1).length() > prefix.length()) {
                        names.add(ConsumerName.of(name.group(1).substring(prefix.length())));
                    }
                }
            }
            return names;
        });
    }

    private List<String> clientLists() {
        if (connection.stateful() instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
            return cluster.sync().upstream().commands().clientList().stream().toList();
        }
        return List.of(connection.sync().clientList());
    }

    private void takeLock(byte[] token) {
        long deadline = System.nanoTime() + LOCK_EXPIRY.plus(LOCK_EXPIRY).toNanos();
        SetArgs expiring = SetArgs.Builder.nx().px(LOCK_EXPIRY.toMillis());
        while (call("take the consumer claims' lock", () -> connection.sync().set(lock, token, expiring)) == null) {
            if (System.nanoTime() > deadline) {
                throw new TransportException("could not take the consumer claims' lock " + Utf8.escaped(lock)
                        + " within " + LOCK_EXPIRY.plus(LOCK_EXPIRY).toSeconds() + " s: another process keeps it");
            }
            try {
                Thread.sleep(LOCK_RETRY.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new TransportException("interrupted while waiting for the consumer claims' lock", e);
            }
        }
    }

    @Override
    public void close() {
        held.keySet().forEach(this::release);
    }
}
