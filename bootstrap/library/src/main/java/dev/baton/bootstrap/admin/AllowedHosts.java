package dev.baton.bootstrap.admin;

import dev.baton.bootstrap.config.AdminAddress;
import dev.baton.bootstrap.config.Setting;
import java.net.URI;
import java.util.HashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The names the admin server answers to in a request's {@code Host}, against DNS rebinding: a page of another site
 * whose name its DNS turns into 127.0.0.1 reaches this server with that name in {@code Host}, and is refused.
 * Served: loopback names ({@code localhost}, {@code *.localhost}), IP addresses (a browser sends one only when the
 * page's own address is one, so no other site can), the host of {@code BATON_ADMIN_ADDRESS} and that of
 * {@code BATON_ADMIN_PUBLIC_ORIGIN}, on any port. A request without {@code Host} (no browser sends one) passes.
 */
final class AllowedHosts {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final Pattern IPV6 = Pattern.compile("\\[[0-9A-Fa-f:.]+](:\\d+)?");

    private final Set<String> names = new HashSet<>();

    AllowedHosts(AdminAddress address, Optional<String> publicOrigin) {
        names.add(address.host().toLowerCase(Locale.ROOT));
        publicOrigin.map(origin -> URI.create(origin).getHost()).ifPresent(names::add);
    }

    /** @throws AdminHttpException 403 when {@code host} names another server */
    void check(Optional<String> host) {
        if (host.isPresent() && !allows(host.get().trim())) {
            throw new AdminHttpException(403, "Host '" + host.get() + "' is not a name of this admin server: use"
                    + " localhost, its IP address or the host of " + Setting.ADMIN_ADDRESS.envName() + ", or set "
                    + Setting.ADMIN_PUBLIC_ORIGIN.envName() + " to the origin a proxy serves it at");
        }
    }

    private boolean allows(String host) {
        if (IPV6.matcher(host).matches()) {
            return true;
        }
        int colon = host.lastIndexOf(':');
        String name = (colon < 0 ? host : host.substring(0, colon)).toLowerCase(Locale.ROOT);
        return name.equals("localhost") || name.endsWith(".localhost") || IPV4.matcher(name).matches()
                || names.contains(name);
    }
}
