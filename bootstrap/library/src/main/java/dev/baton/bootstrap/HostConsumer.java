package dev.baton.bootstrap;

import dev.baton.domain.ConsumerName;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/** The default consumer name {@code <host>-<pid>}: stable across restarts on one host, distinct between processes. */
final class HostConsumer {
    private HostConsumer() {
    }

    static ConsumerName name() {
        String host = Optional.ofNullable(System.getenv("HOSTNAME")).filter(h -> !h.isBlank()).orElseGet(() -> {
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                return "baton";
            }
        });
        return ConsumerName.of(host.replaceAll("[^A-Za-z0-9._-]", "_") + "-" + ProcessHandle.current().pid());
    }
}
