package dev.baton.adapters.redis;

import io.lettuce.core.RedisURI;
import java.net.URI;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The Redis URIs the adapter accepts: {@code redis://} and {@code rediss://} name one server, {@code
 * redis-sentinel://} and {@code rediss-sentinel://} name Sentinels and the master they watch ({@code
 * redis-sentinel://[:password@]host:port[,host:port…][/db]#masterName}, Lettuce's form). The checks say what is
 * wrong before Lettuce reports it in its own terms, and never repeat a password.
 */
final class RedisUris {
    private static final Pattern SERVER = Pattern.compile("(?i)rediss?://.*");
    private static final Pattern SENTINEL = Pattern.compile("(?i)rediss?-sentinel://.*");
    // one entry of a Sentinel host list: host[:port] (Lettuce parses no IPv6 literal there)
    private static final String NO_MASTER = "it names no master: add #masterName, the name the Sentinels monitor";
    private static final Pattern SENTINEL_HOST = Pattern.compile("[^\\s:/@,\\[\\]]+(:\\d{1,5})?");

    private RedisUris() {
    }

    static boolean isSentinel(String uri) {
        return SENTINEL.matcher(uri).matches();
    }

    /**
     * Checks {@code uri} and returns the reason it is not one the adapter accepts, or null when it is. The reason
     * never contains the URI's password.
     */
    static String problem(String uri) {
        if (isSentinel(uri)) {
            return sentinelProblem(uri);
        }
        if (!SERVER.matcher(uri).matches()) {
            return "must start with redis:// (rediss:// for TLS), or redis-sentinel:// (rediss-sentinel://) "
                    + "for Sentinel";
        }
        try {
            if (URI.create(uri).getHost() == null) {
                return "it names no host (or a bad port)";
            }
            RedisURI.create(uri);
            return null;
        } catch (RuntimeException e) {
            return "it is not a valid Redis URI: " + String.valueOf(e.getMessage());
        }
    }

    private static String sentinelProblem(String uri) {
        String afterScheme = uri.substring(uri.indexOf("://") + 3);
        int fragment = afterScheme.indexOf('#');
        String master = fragment < 0 ? "" : afterScheme.substring(fragment + 1);
        String authority = afterScheme.substring(afterScheme.lastIndexOf('@', fragment < 0 ? afterScheme.length()
                : fragment) + 1);
        authority = authority.split("[/?#]", 2)[0];
        if (authority.isEmpty()) {
            return "it names no Sentinel: expected redis-sentinel://host:port[,host:port…]#masterName";
        }
        for (String host : authority.split(",", -1)) {
            if (!SENTINEL_HOST.matcher(host).matches() || port(host) > 65_535) {
                return "Sentinel '" + host + "' is not host[:port]";
            }
        }
        if (master.isBlank() && !uri.toLowerCase(Locale.ROOT).contains("sentinelmasterid=")) {
            return NO_MASTER;
        }
        try {
            RedisURI parsed = RedisURI.create(uri);
            if (parsed.getSentinelMasterId() == null || parsed.getSentinelMasterId().isBlank()) {
                return NO_MASTER;
            }
            return null;
        } catch (RuntimeException e) {
            return "it is not a valid Redis Sentinel URI: " + String.valueOf(e.getMessage());
        }
    }

    private static int port(String host) {
        int colon = host.lastIndexOf(':');
        return colon < 0 ? 0 : Integer.parseInt(host.substring(colon + 1));
    }
}
