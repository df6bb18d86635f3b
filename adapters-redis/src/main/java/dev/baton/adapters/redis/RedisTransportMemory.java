package dev.baton.adapters.redis;

import dev.baton.application.port.out.TransportMemory;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Redis's memory as a marker key and the server's run id: a restart without persistence or a flush loses the marker
 * (the next call writes a new one), a restart or a failover to another server changes the run id. A restart that kept
 * its data changes the epoch too: the relay then publishes outstanding jobs once more, which the ledger acknowledges.
 */
final class RedisTransportMemory implements TransportMemory {
    private static final Pattern RUN_ID = Pattern.compile("run_id:([0-9a-f]+)");

    private final Link connection;
    /** {@code <namespace>:memory}: each namespace's relay keeps an epoch of its own. */
    private final byte[] marker;

    RedisTransportMemory(Link connection, Namespace namespace) {
        this.connection = connection;
        this.marker = namespace.global("memory");
    }

    @Override
    public String epoch() {
        return Calls.call("reading Redis's run id and memory marker", () -> {
            connection.sync().setnx(marker, UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
            String kept = new String(connection.sync().get(marker), StandardCharsets.UTF_8);
            Matcher runId = RUN_ID.matcher(connection.sync().info("server"));
            return (runId.find() ? runId.group(1) : "unknown") + "/" + kept;
        });
    }
}
