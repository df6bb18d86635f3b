package dev.baton.bootstrap.config;

import dev.baton.adapters.redis.RedisAdapter;
import dev.baton.application.service.JobThreads;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The rules of single settings' values, whatever their source: each returns the value (normalized) or throws an
 * {@link IllegalArgumentException} (or a {@code BatonException}) saying what is wrong, for the caller to name the
 * setting and where its value came from.
 */
final class SettingRules {
    private SettingRules() {
    }

    static Duration positive(Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            throw new IllegalArgumentException("must be positive");
        }
        return duration;
    }

    static int wholeNumber(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("expected a whole number");
        }
    }

    static int intIn(int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException("must be in " + min + ".." + max);
        }
        return value;
    }

    static boolean onOff(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("use on or off");
        };
    }

    /** Comma-separated, blanks dropped. */
    static List<String> list(String text) {
        return Arrays.stream(text.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    static String redisUri(String text) {
        if (!text.matches("(?i)rediss?(-sentinel)?://.+")) {
            throw new IllegalArgumentException("expected redis://[user:password@]host:port[/db], rediss://... for TLS, "
                    + "or redis-sentinel://[user:password@]host:port[,host:port...]#masterName");
        }
        return text;
    }

    /** {@code host:port} each; IPv6 hosts in brackets ({@code [::1]:7000}). */
    static List<String> clusterNodes(List<String> nodes) {
        for (String node : nodes) {
            int colon = node.lastIndexOf(':');
            String host = colon < 0 ? "" : node.substring(0, colon);
            boolean bracketed = host.startsWith("[") && host.endsWith("]");
            if (host.isEmpty() || (!bracketed && host.contains(":")) || host.matches(".*[\\s/@].*")) {
                throw new IllegalArgumentException("expected comma-separated host:port, got '" + node + "'");
            }
            try {
                intIn(wholeNumber(node.substring(colon + 1)), 1, 65_535);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the port of '" + node + "' " + e.getMessage());
            }
        }
        return List.copyOf(nodes);
    }

    /** The Redis adapter's rule: its keys are {@code <namespace>:{queue}:...}. */
    static String namespace(String text) {
        return RedisAdapter.Config.requireNamespace(text);
    }

    /** Empty: the default name, the pod's or the host's. */
    static String consumer(String text) {
        if (!text.isEmpty()) {
            ConsumerName.of(text);
        }
        return text;
    }

    static String jdbcUrl(String text) {
        if (!text.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("must be a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database"
                    + "?user=...)");
        }
        return text;
    }

    static String schema(String text) {
        if (!text.matches("[a-z_][a-z0-9_]{0,62}")) {
            throw new IllegalArgumentException("expected a lower-case SQL identifier (letters, digits, _)");
        }
        return text;
    }

    /** Queue names, each once. */
    static List<String> queues(List<String> names) {
        return names.stream().map(QueueName::of).distinct().map(QueueName::value).toList();
    }

    /** Checked against the running JVM now: {@code virtual} on Java 17 fails at start-up, not at the first job. */
    static JobThreads jobThreads(JobThreads threads) {
        threads.resolve(1); // refused or not, whatever the batch size
        return threads;
    }

    static List<String> locations(List<String> locations) {
        for (String location : locations) {
            if (!location.startsWith("classpath:") && !location.startsWith("filesystem:")) {
                throw new IllegalArgumentException("expected migration locations like filesystem:/opt/app/sql or "
                        + "classpath:db/shop");
            }
        }
        return List.copyOf(locations);
    }

    static String adminAddress(String text) {
        adminAddressOf(text);
        return text;
    }

    /** Empty, or an origin as a browser sends it: {@code https://host} or {@code https://host:port}, lower case. */
    static String publicOrigin(String text) {
        if (text.isEmpty()) {
            return text;
        }
        URI uri;
        try {
            uri = new URI(text);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("expected an origin such as https://baton.example.com: "
                    + e.getMessage());
        }
        boolean web = "http".equalsIgnoreCase(uri.getScheme()) || "https".equalsIgnoreCase(uri.getScheme());
        boolean bare = uri.getRawUserInfo() == null && uri.getRawQuery() == null && uri.getRawFragment() == null
                && (uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"));
        if (!web || uri.getHost() == null || !bare) {
            throw new IllegalArgumentException("expected an origin such as https://baton.example.com (http or https,"
                    + " a host, an optional port, no path)");
        }
        return (uri.getScheme() + "://" + uri.getHost() + (uri.getPort() < 0 ? "" : ":" + uri.getPort()))
                .toLowerCase(Locale.ROOT);
    }

    /** Empty for {@code off}. */
    static Optional<AdminAddress> adminAddressOf(String text) {
        if (text.equalsIgnoreCase("off")) {
            return Optional.empty();
        }
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("expected host:port (port 0 picks a free one) or off");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return Optional.of(new AdminAddress(host, intIn(wholeNumber(text.substring(colon + 1)), 0, 65_535)));
    }
}
