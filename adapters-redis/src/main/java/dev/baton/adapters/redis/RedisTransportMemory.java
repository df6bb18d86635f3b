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
    static final byte[] MARKER = "baton:memory".getBytes(StandardCharsets.UTF_8);
    private static final Pattern RUN_ID = Pattern.compile("run_id:([0-9a-f]+)");

    private final Link connection;

    RedisTransportMemory(Link connection) {
        this.connection = connection;
    }

    @Override
    public String epoch() {
        return Calls.call("reading Redis's run id and memory marker", () -> {
            connection.sync().setnx(MARKER, UUID.randomUUID().toString().getBytes(StandardCharsets.UTF_8));
            String marker = new String(connection.sync().get(MARKER), StandardCharsets.UTF_8);
            Matcher runId = RUN_ID.matcher(connection.sync().info("server"));
            return (runId.find() ? runId.group(1) : "unknown") + "/" + marker;
        });
    }
}
