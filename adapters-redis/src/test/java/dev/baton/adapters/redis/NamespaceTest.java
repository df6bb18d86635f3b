package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.domain.InvalidValueException;
import dev.baton.domain.QueueName;
import dev.baton.domain.ScheduleName;
import io.lettuce.core.cluster.SlotHash;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The key names under a namespace: the default one is exactly the layout of the releases before namespaces. */
class NamespaceTest {
    private static final QueueName ORDERS = QueueName.of("orders");

    @Test
    void theDefaultNamespaceNamesEveryKeyAsBefore() {
        QueueKeys keys = QueueKeys.of(Namespace.DEFAULT, ORDERS, "-workers", 0, 1);

        assertThat(text(keys.all())).containsExactly("baton:{orders}:stream", "baton:{orders}:delayed",
                "baton:{orders}:dead", "baton:{orders}:dead-jobs", "baton:{orders}:isolated",
                "baton:{orders}:unique-entries", "baton:{orders}:totals");
        assertThat(text(keys.schedule(ScheduleName.of("nightly")), keys.uniqueLock("invoice-7"),
                Namespace.DEFAULT.meta(ORDERS), Namespace.DEFAULT.paused(ORDERS), Namespace.DEFAULT.cancelled(ORDERS),
                Namespace.DEFAULT.global("memory"))).containsExactly("baton:{orders}:schedule:nightly",
                "baton:{orders}:unique:invoice-7", "baton:{orders}:meta", "baton:{orders}:paused",
                "baton:{orders}:cancelled", "baton:memory");
        assertThat(QueueKeys.of(Namespace.DEFAULT, ORDERS, "-workers", 2, 4).streamKey())
                .isEqualTo("baton:{orders:2}:stream");
        assertThat(keys.group()).isEqualTo("orders-workers".getBytes(StandardCharsets.UTF_8));
        assertThat(RedisAdapter.Config.of("redis://localhost").namespace()).isEqualTo("baton");
    }

    @Test
    void anotherNamespacePrefixesEveryKeyOutsideTheHashTag() {
        Namespace shop = new Namespace("shop");
        QueueKeys partition = QueueKeys.of(shop, ORDERS, "-workers", 2, 4);

        assertThat(text(partition.all())).allMatch(key -> key.startsWith("shop:{orders:2}:"));
        assertThat(partition.uniqueLockPrefix()).isEqualTo("shop:{orders:2}:unique:");
        assertThat(text(shop.meta(ORDERS), shop.paused(ORDERS), shop.cancelled(ORDERS), shop.global("memory")))
                .containsExactly("shop:{orders}:meta", "shop:{orders}:paused", "shop:{orders}:cancelled",
                        "shop:memory");
        // one slot per partition, the same as without the namespace: the queue's scripts stay single-slot
        int slot = SlotHash.getSlot(partition.stream());
        assertThat(Stream.concat(Arrays.stream(partition.all()), Stream.of(partition.schedule(ScheduleName.of("n")),
                partition.uniqueLock("k")))).allMatch(key -> SlotHash.getSlot(key) == slot);
        assertThat(slot).isEqualTo(SlotHash.getSlot(QueueKeys.of(Namespace.DEFAULT, ORDERS, "-w", 2, 4).stream()));
        assertThat(SlotHash.getSlot(shop.paused(ORDERS))).isEqualTo(SlotHash.getSlot(shop.meta(ORDERS)))
                .isEqualTo(SlotHash.getSlot(shop.cancelled(ORDERS)));
    }

    @Test
    void theDirectoryPatternMatchesOnlyItsOwnNamespacesStreams() {
        Namespace shop = new Namespace("shop.eu-1");

        assertThat(shop.streamPattern()).isEqualTo("shop.eu-1:{*}:stream");
        assertThat(shop.streamKey().matcher("shop.eu-1:{orders:3}:stream").replaceAll("$1")).isEqualTo("orders");
        assertThat(shop.streamKey().matcher("shopXeu-1:{orders}:stream").matches()).isFalse();
        assertThat(shop.streamKey().matcher("baton:{orders}:stream").matches()).isFalse();
    }

    @Test
    void refusesNamespacesThatCannotPrefixAKeyAndSaysWhy() {
        for (String bad : List.of("", "shop:eu", "{shop}", "shop eu", "shop*", "-shop", "x".repeat(65))) {
            assertThatThrownBy(() -> RedisAdapter.Config.of("redis://localhost").withNamespace(bad))
                    .as(bad).isInstanceOf(InvalidValueException.class)
                    .hasMessageContaining("namespace '" + bad + "' is not usable")
                    .hasMessageContaining("a brace would become the Redis Cluster hash tag of every key")
                    .hasMessageContaining("a colon would make one namespace a prefix of another");
        }
        assertThatThrownBy(() -> RedisAdapter.Config.of("redis://localhost").withNamespace(null))
                .isInstanceOf(InvalidValueException.class);
        assertThat(RedisAdapter.Config.of("redis://localhost").withNamespace("A.b_c-9".repeat(9) + "x").namespace())
                .hasSize(64);
        assertThat(RedisAdapter.Config.of("redis://localhost").withNamespace("shop").toString())
                .contains("namespace=shop");
    }

    private static List<String> text(byte[]... keys) {
        return Arrays.stream(keys).map(key -> new String(key, StandardCharsets.UTF_8)).toList();
    }
}
