package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.application.port.out.Delivery;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueTotals;
import dev.baton.domain.Schedule;
import dev.baton.domain.ScheduleState;
import dev.baton.domain.Uniqueness;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two services sharing one Redis, each under a namespace of its own, with a queue of the same name: neither sees the
 * other's queue, jobs, totals, pauses, cancels, schedules, uniqueness keys or memory marker. A third adapter with the
 * default namespace reads what a plain {@code XADD baton:{q}:stream} wrote, as before namespaces.
 */
class SharedRedisNamespacesTest {
    private static final ConsumerName CONSUMER = ConsumerName.of("c");
    private static final Duration BLOCK = Duration.ofMillis(50);
    private static final String TICK = "tick";
    private static final String RUN = UUID.randomUUID().toString().substring(0, 8);
    private static final Namespace SHOP = new Namespace("shop-" + RUN);
    private static final Namespace BILLING = new Namespace("billing-" + RUN);
    private static RedisAdapter shop;
    private static RedisAdapter billing;
    private static RedisAdapter unscoped;
    private static RawRedis raw;

    private final QueueName queue = QueueName.of("shared-" + UUID.randomUUID().toString().substring(0, 13));

    @BeforeAll
    static void connect() {
        shop = open(RedisAdapter.Config.of(TestRedis.uri()).withNamespace(SHOP.value()));
        billing = open(RedisAdapter.Config.of(TestRedis.uri()).withNamespace(BILLING.value()));
        unscoped = open(RedisAdapter.Config.of(TestRedis.uri()));
        raw = new RawRedis(TestRedis.uri());
    }

    private static RedisAdapter open(RedisAdapter.Config config) {
        return RedisAdapter.open(config, Clock.systemUTC());
    }

    @AfterAll
    static void disconnect() {
        raw.commands().del(SHOP.global("memory"), BILLING.global("memory"));
        shop.close();
        billing.close();
        unscoped.close();
        raw.close();
    }

    @AfterEach
    void forget() {
        shop.deleteQueue(queue);
        billing.deleteQueue(queue);
        unscoped.deleteQueue(queue);
        // a schedule's watermark outlives its queue's deletion
        raw.commands().del(RawRedis.bytes(SHOP.key(queue.value(), "schedule:" + TICK)),
                RawRedis.bytes(BILLING.key(queue.value(), "schedule:" + TICK)));
    }

    @Test
    void aJobEnqueuedInOneNamespaceIsLeasedOnlyThere() {
        shop.publisher().publish(job("order-1"));
        billing.leases().declare(queue);

        assertThat(billing.leases().lease(queue, CONSUMER, 10, BLOCK).deliveries()).isEmpty();
        assertThat(unscoped.leases().lease(queue, CONSUMER, 10, BLOCK).deliveries()).isEmpty();
        List<Delivery> leased = shop.leases().lease(queue, CONSUMER, 10, BLOCK).deliveries();
        assertThat(leased).extracting(d -> ((Delivery.Leased) d).job().id()).containsExactly(JobId.of("order-1"));
        assertThat(raw.commands().exists(RawRedis.bytes(SHOP.key(queue.value(), "stream")))).isEqualTo(1);
    }

    @Test
    void queueListsStatsAndTotalsStayInTheirNamespace() {
        shop.publisher().publish(job("order-1"));
        shop.leases().acknowledge(queue, shop.leases().lease(queue, CONSUMER, 1, BLOCK).deliveries().stream()
                .map(Delivery::id).toList());
        shop.publisher().publish(job("order-2"));

        assertThat(shop.overview().queues().names()).contains(queue);
        assertThat(billing.overview().queues().names()).doesNotContain(queue);
        assertThat(unscoped.overview().queues().names()).doesNotContain(queue);
        assertThat(shop.administration().stats(queue).length()).isEqualTo(2);
        assertThat(billing.administration().stats(queue).length()).isZero();
        assertThat(shop.overview().totals(List.of(queue)).get(queue).completed()).isEqualTo(1);
        assertThat(billing.overview().totals(List.of(queue)).get(queue)).isEqualTo(QueueTotals.none(queue));
    }

    @Test
    void pausesAndCancelsStayInTheirNamespace() {
        shop.administration().pause(queue);
        shop.administration().cancel(queue, JobId.of("order-1"), Instant.now());

        assertThat(shop.leases().paused(List.of(queue))).containsExactly(queue);
        assertThat(billing.leases().paused(List.of(queue))).isEmpty();
        assertThat(unscoped.leases().paused(List.of(queue))).isEmpty();
        assertThat(shop.leases().cancelled(queue, List.of(JobId.of("order-1")))).containsExactly(JobId.of("order-1"));
        assertThat(billing.leases().cancelled(queue, List.of(JobId.of("order-1")))).isEmpty();
        assertThat(shop.administration().stats(queue).paused()).isTrue();
        assertThat(billing.administration().stats(queue).paused()).isFalse();
    }

    @Test
    void schedulesAndUniquenessKeysStayInTheirNamespace() {
        Schedule tick = Schedule.of(TICK, "every 1s", queue.value(), "{}");
        Instant fireTime = Instant.parse("2030-01-01T00:00:00Z");
        assertThat(shop.scheduleFires().fire(tick, fireTime)).isTrue();
        Uniqueness key = Uniqueness.of("invoice-7");

        assertThat(billing.scheduleFires().state(tick)).isEqualTo(ScheduleState.NEVER_SEEN);
        assertThat(billing.scheduleFires().fire(tick, fireTime)).isTrue();
        assertThat(shop.publisher().publishUnique(key.on(job("shop-invoice")))).isEqualTo(JobId.of("shop-invoice"));
        assertThat(billing.publisher().publishUnique(key.on(job("billing-invoice"))))
                .isEqualTo(JobId.of("billing-invoice"));
        assertThat(shop.publisher().publishUnique(key.on(job("again")))).isEqualTo(JobId.of("shop-invoice"));
    }

    @Test
    void eachNamespaceKeepsAMemoryMarkerOfItsOwn() {
        String shopEpoch = shop.memory().epoch();
        String billingEpoch = billing.memory().epoch();

        assertThat(billingEpoch).isNotEqualTo(shopEpoch);
        raw.commands().del(BILLING.global("memory"));
        assertThat(shop.memory().epoch()).isEqualTo(shopEpoch);
        assertThat(billing.memory().epoch()).isNotEqualTo(billingEpoch);
    }

    @Test
    void theDefaultNamespaceLeasesWhatAPlainXaddToTheOldKeyWrote() {
        unscoped.leases().declare(queue);
        raw.append(queue, RawRedis.bytes("job_id"), RawRedis.bytes("plain-1"), RawRedis.bytes("payload"),
                RawRedis.bytes("{}"));

        assertThat(shop.leases().lease(queue, CONSUMER, 10, BLOCK).deliveries()).isEmpty();
        assertThat(unscoped.leases().lease(queue, CONSUMER, 10, BLOCK).deliveries())
                .extracting(d -> ((Delivery.Leased) d).job().id()).containsExactly(JobId.of("plain-1"));
        assertThat(Set.copyOf(unscoped.overview().queues().names())).contains(queue);
    }

    private Job job(String id) {
        return Job.create(JobId.of(id), queue, "{}", Instant.ofEpochMilli(1_900_000_000_000L));
    }
}
