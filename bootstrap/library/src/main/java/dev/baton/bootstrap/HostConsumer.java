package dev.baton.bootstrap;

import dev.baton.domain.ConsumerName;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The default consumer name: the pod's name in Kubernetes ({@code HOSTNAME}) or the host name, stable across restarts.
 * Two processes on one host share it: the second one's workers claim {@code <host>-2} (docs/OPERATIONS.md).
 */
final class HostConsumer {
    private HostConsumer() {
    }

    /** Room left for the number a second worker under the name takes ({@code -2}) within a name's 200 characters. */
    private static final int MAX_LENGTH = 190;

    static ConsumerName name() {
        return of(System.getenv(), HostConsumer::hostName);
    }

    static ConsumerName of(Map<String, String> env, Supplier<String> hostName) {
        String host = Optional.ofNullable(env.get("HOSTNAME")).filter(h -> !h.isBlank()).orElseGet(hostName);
        String name = host.replaceAll("[^A-Za-z0-9._-]", "_");
        return ConsumerName.of(name.substring(0, Math.min(name.length(), MAX_LENGTH)));
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return "baton";
        }
    }
}
