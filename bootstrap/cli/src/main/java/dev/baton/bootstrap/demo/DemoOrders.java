package dev.baton.bootstrap.demo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A reproducible mix of demo orders for {@code baton dev}, tests and benchmarks: mostly good orders, every 25th fails
 * once or twice before it ships, and (from 20 orders on) three poison orders, one that fails more often than the
 * retry policy allows, and one whose payload is not JSON.
 */
public final class DemoOrders {
    /** Planned failures of the order that exhausts its attempts: more than any sane max-attempts. */
    static final int HOPELESS = 1_000;

    private DemoOrders() {
    }

    /** One demo order as a job. */
    public record Order(String jobId, String payload, Kind kind) {
    }

    /** What should become of an order. */
    public enum Kind {
        SHIPS, SHIPS_AFTER_RETRIES, POISON, EXHAUSTS, MALFORMED
    }

    public static List<Order> mix(int count) {
        List<Order> orders = new ArrayList<>(count);
        for (int i = 1; i <= count; i++) {
            String id = String.format("order-%06d", i);
            Kind kind = kind(i, count);
            String payload = switch (kind) {
                case SHIPS -> order(id, 0, false);
                case SHIPS_AFTER_RETRIES -> order(id, 1 + i / 25 % 2, false);
                case POISON -> order(id, 0, true);
                case EXHAUSTS -> order(id, HOPELESS, false);
                case MALFORMED -> "order " + id + ", please ship quickly (not JSON)";
            };
            orders.add(new Order(id, payload, kind));
        }
        return orders;
    }

    /** How many orders of each kind {@link #mix} makes. */
    public static Map<Kind, Integer> expected(int count) {
        Map<Kind, Integer> counts = new TreeMap<>();
        mix(count).forEach(order -> counts.merge(order.kind(), 1, Integer::sum));
        return counts;
    }

    private static Kind kind(int i, int count) {
        if (count >= 20) {
            if (i == 7) {
                return Kind.MALFORMED;
            }
            if (i == 11) {
                return Kind.EXHAUSTS;
            }
            if (i == count / 3 || i == count / 2 || i == count - 1) {
                return Kind.POISON;
            }
        }
        return i % 25 == 0 ? Kind.SHIPS_AFTER_RETRIES : Kind.SHIPS;
    }

    private static String order(String id, int failTimes, boolean poison) {
        return "{\"orderId\":\"" + id + "\",\"failTimes\":" + failTimes + ",\"poison\":" + poison + ",\"sleepMs\":0}";
    }
}
