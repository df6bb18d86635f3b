package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.RawRedis.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.Reclaimed;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.ErrorTrace;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import dev.baton.domain.Retention;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.models.stream.PendingMessage;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Redis-specific behaviour beyond the port contract, against a real Redis. */
class RedisStreamTransportTest {
    private static final Duration SHORT_BLOCK = Duration.ofMillis(20);
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    private static RedisAdapter adapter;
    private static RawRedis raw;

    private final QueueName queue = QueueName.of("redis-test-" + UUID.randomUUID().toString().substring(0, 13));
    private final ConsumerName alice = ConsumerName.of("alice");
    private final ConsumerName bob = ConsumerName.of("bob");
    private ExecutorService executor;

    @BeforeAll
    static void connect() {
        adapter = RedisAdapter.open(RedisAdapter.Config.of(TestRedis.uri()), Clock.systemUTC());
        raw = new RawRedis(TestRedis.uri());
    }

    @AfterAll
    static void disconnect() {
        adapter.close();
        raw.close();
    }

    @AfterEach
    void cleanUp() {
        if (executor != null) {
            executor.shutdownNow();
        }
        raw.forget(queue);
    }

    @Test
    void aRedisCliStyleEntryWithPlainStringFieldsIsAValidJob() {
        adapter.leases().declare(queue);
        String id = raw.append(queue, bytes("job_id"), bytes("order-1001"), bytes("payload"),
                bytes("{\"orderId\":\"1001\"}"), bytes("attempt"), bytes("0"), bytes("tenant"), bytes("acme"));

        Delivery.Leased leased =
                (Delivery.Leased) single(adapter.leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries());

        assertThat(leased.id()).isEqualTo(new DeliveryId(id));
        assertThat(leased.deliveryCount()).isEqualTo(1);
        Job job = leased.job();
        assertThat(job.id()).isEqualTo(JobId.of("order-1001"));
        assertThat(job.payload()).isEqualTo("{\"orderId\":\"1001\"}");
        assertThat(job.attempt()).isZero();
        assertThat(job.type()).isEmpty();
        assertThat(job.lastError()).isEmpty();
        assertThat(job.headers()).isEqualTo(Map.of("tenant", "acme"));
        assertThat(job.enqueuedAt()).isEqualTo(Instant.ofEpochMilli(EntryId.parse(id).ms()));
    }

    @Test
    void everyJobFieldRoundTripsThroughTheStreamAndTheDelayedSet() {
        Job job = new Job(JobId.of("full-1"), queue, Optional.of("invoice.send"), "{\"ü\":\"\\\"quoted\\\"\\n€\"}",
                2, NOW, Optional.empty(), Optional.of(JobError.permanent("x.Boom", "line1\nline2\t\"q\" 😀")),
                Map.of("trace", "t-1", "empty", ""));
        adapter.publisher().publish(job);
        Delivery first = single(adapter.leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        assertThat(((Delivery.Leased) first).job()).isEqualTo(job);

        Job retried = job.retriedAfter(JobError.retryable("java.io.IOException", "reset"), NOW.minusSeconds(1));
        adapter.leases().retryLater(first, retried);
        assertThat(adapter.maintenance().promoteDue(queue, NOW, 10)).isEqualTo(1);
        Job again = ((Delivery.Leased) single(adapter.leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries())).job();

        assertThat(again).isEqualTo(new Job(retried.id(), queue, retried.type(), retried.payload(), 3, NOW,
                Optional.empty(), retried.lastError(), retried.headers()));
    }

    @Test
    void malformedEntriesOfAnyKindAreLeasedWithoutBlockingValidOnes() {
        adapter.leases().declare(queue);
        byte[] invalidUtf8 = {'{', (byte) 0xC3, (byte) 0x28, '}'};
        byte[] twoMiB = new byte[2 * 1024 * 1024];
        Arrays.fill(twoMiB, (byte) 'x');
        raw.append(queue, bytes("payload"), bytes("{}"));
        raw.append(queue, bytes("job_id"), bytes("no-payload"));
        raw.append(queue, bytes("job_id"), bytes("bad-attempt"), bytes("payload"), bytes("{}"), bytes("attempt"),
                bytes("twice"));
        raw.append(queue, bytes("job_id"), bytes("bad-bytes"), bytes("payload"), invalidUtf8);
        raw.append(queue, bytes("job_id"), bytes("huge"), bytes("payload"), twoMiB);
        adapter.publisher().publish(Job.create(JobId.of("valid"), queue, "{}", NOW));

        List<Delivery> deliveries = adapter.leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries();

        assertThat(deliveries).hasSize(6);
        assertThat(deliveries.subList(0, 5)).allSatisfy(d -> assertThat(d).isInstanceOf(Delivery.Malformed.class));
        List<String> problems = deliveries.subList(0, 5).stream().map(d -> ((Delivery.Malformed) d).problem())
                .toList();
        assertThat(problems.get(0)).contains("job_id");
        assertThat(problems.get(1)).contains("payload");
        assertThat(problems.get(2)).contains("attempt").contains("twice");
        assertThat(problems.get(3)).contains("UTF-8");
        assertThat(problems.get(4)).contains("2097152 bytes").contains("1048576");
        assertThat(((Delivery.Malformed) deliveries.get(3)).fields()).containsEntry("payload", "{\\xC3(}");
        assertThat(((Delivery.Leased) deliveries.get(5)).job().id()).isEqualTo(JobId.of("valid"));
    }

    @Test
    void aDeadLettersTraceTravelsAsAnOptionalFieldThatARedriveDrops() {
        adapter.publisher().publish(Job.create(JobId.of("traced"), queue, "{}", NOW));
        Delivery delivery = single(adapter.leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        adapter.leases().deadLetter(delivery, DeadLetter.of(((Delivery.Leased) delivery).job(),
                DeadLetterReason.NON_RETRYABLE, JobError.permanent("E", "x"), 1, NOW)
                .withTrace(new ErrorTrace("E: x\n\tat Handler.run(Handler.java:7)")));
        // as a letter from before traces were kept, or from another client, looks
        raw.commands().xadd(RawRedis.dead(queue), bytes("job_id"), bytes("old"), bytes("payload"), bytes("{}"),
                bytes("dead_reason"), bytes("EXHAUSTED"), bytes("dead_attempts"), bytes("3"));

        List<StreamMessage<byte[], byte[]>> dead = raw.commands().xrange(RawRedis.dead(queue), Range.unbounded());
        assertThat(dead.get(0).getBody().entrySet()).anySatisfy(field -> {
            assertThat(new String(field.getKey())).isEqualTo("dead_error_trace");
            assertThat(new String(field.getValue())).isEqualTo("E: x\n\tat Handler.run(Handler.java:7)");
        });
        assertThat(adapter.administration().deadLetters(queue, Optional.empty(), 10))
                .extracting(stored -> stored.letter().trace().map(ErrorTrace::text))
                .containsExactly(Optional.of("E: x\n\tat Handler.run(Handler.java:7)"), Optional.empty());
        assertThat(adapter.administration().redrive(queue, new DeadLetterSelection.All())).isEqualTo(2);
        assertThat(adapter.leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries()).hasSize(2).allSatisfy(redriven ->
                assertThat(((Delivery.Leased) redriven).job().headers()).isEmpty());
    }

    @Test
    void aMalformedEntryIsDeadLetteredAndRedrivenByteForByte() {
        adapter.leases().declare(queue);
        byte[] invalidUtf8 = {'{', (byte) 0xFF, '}'};
        raw.append(queue, bytes("job_id"), bytes("bytes-1"), bytes("payload"), invalidUtf8);
        Delivery.Malformed malformed =
                (Delivery.Malformed) single(adapter.leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());

        adapter.leases().deadLetter(malformed,
                DeadLetter.malformed(queue, malformed.fields(), malformed.problem(), NOW));
        assertThat(adapter.administration().deadLetters(queue, Optional.empty(), 10))
                .singleElement().satisfies(stored -> {
                    assertThat(stored.letter().rawFields()).containsEntry("payload", "{\\xFF}");
                    assertThat(stored.letter().lastError().message()).contains("UTF-8");
                });
        assertThat(adapter.administration().redrive(queue, new DeadLetterSelection.All())).isEqualTo(1);

        List<StreamMessage<byte[], byte[]>> entries = raw.commands().xrange(RawRedis.stream(queue),
                Range.unbounded());
        Map<String, byte[]> redriven = new HashMap<>();
        entries.get(entries.size() - 1).getBody().forEach((name, value) -> redriven.put(new String(name), value));
        assertThat(redriven).containsOnlyKeys("job_id", "payload");
        assertThat(redriven.get("payload")).isEqualTo(invalidUtf8);
    }

    @Test
    void aCrashedConsumersJobIsTakenOverWithItsDeliveryCounts() {
        adapter.publisher().publish(Job.create(JobId.of("crashy"), queue, "{}", NOW));
        DeliveryId id = single(adapter.leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries()).id();

        // alice never acknowledges: each time its holder goes quiet, another consumer takes the entry over and runs
        // it alone, and goes quiet too
        List<List<Long>> counts = new ArrayList<>();
        for (ConsumerName next : List.of(bob, alice, bob)) {
            makeIdle(id, Duration.ofMinutes(10));
            Reclaimed reclaimed = adapter.maintenance().reclaimAbandoned(queue, next, Duration.ofMinutes(5), 10);
            assertThat(reclaimed.vanished()).isEmpty();
            Delivery.Leased taken = (Delivery.Leased) single(reclaimed.deliveries());
            assertThat(taken.id()).isEqualTo(id);
            assertThat(taken.job().id()).isEqualTo(JobId.of("crashy"));
            assertThat(pending(id).getConsumer()).isEqualTo(next.value());
            counts.add(List.of(taken.deliveryCount(), taken.isolatedDeliveries()));
            adapter.leases().isolate(taken, next);
        }

        assertThat(counts).containsExactly(List.of(2L, 0L), List.of(3L, 1L), List.of(4L, 2L));
        assertThat(raw.commands().hget(RawRedis.isolated(queue), bytes(id.value()))).isEqualTo(bytes("3"));
        assertThat(adapter.leases().extendLeases(queue, alice, List.of(id))).containsExactly(id);
    }

    @Test
    void aTrimForgetsIsolationRecordsOfEntriesNoLongerInTheStream() {
        adapter.publisher().publish(Job.create(JobId.of("acked-behind-our-back"), queue, "{}", NOW));
        adapter.publisher().publish(Job.create(JobId.of("still-running"), queue, "{}", NOW));
        List<Delivery> leased = adapter.leases().lease(queue, alice, 2, SHORT_BLOCK).deliveries();
        leased.forEach(delivery -> adapter.leases().isolate((Delivery.Leased) delivery, alice));
        // an operator's XACK (or a group rolled back) leaves the record behind
        raw.commands().xack(RawRedis.stream(queue), RawRedis.group(queue), leased.get(0).id().value());

        adapter.maintenance().trim(queue, new Retention(Duration.ofMillis(1)), Instant.now().plusSeconds(60));

        assertThat(raw.commands().hkeys(RawRedis.isolated(queue))).containsExactly(bytes(leased.get(1).id().value()));
        assertThat(adapter.administration().stats(queue).suspects()).isEqualTo(1);
    }

    @Test
    void extendingALeaseResetsIdleWithoutCountingADeliveryOrStealing() {
        adapter.publisher().publish(Job.create(JobId.of("slow"), queue, "{}", NOW));
        adapter.publisher().publish(Job.create(JobId.of("forgotten"), queue, "{}", NOW));
        List<Delivery> leased = adapter.leases().lease(queue, alice, 2, SHORT_BLOCK).deliveries();
        DeliveryId slow = leased.get(0).id();
        DeliveryId forgotten = leased.get(1).id();
        makeIdle(slow, Duration.ofMinutes(10));
        makeIdle(forgotten, Duration.ofMinutes(10));

        assertThat(adapter.leases().extendLeases(queue, bob, List.of(slow))).containsExactly(slow);
        assertThat(adapter.leases().extendLeases(queue, alice, List.of(slow))).isEmpty();
        Reclaimed reclaimed = adapter.maintenance().reclaimAbandoned(queue, bob, Duration.ofMinutes(5), 10);

        assertThat(reclaimed.deliveries()).extracting(Delivery::id).containsExactly(forgotten);
        assertThat(pending(slow).getConsumer()).isEqualTo("alice");
        assertThat(pending(slow).getRedeliveryCount()).isEqualTo(1);
        assertThat(pending(slow).getMsSinceLastDelivery()).isLessThan(Duration.ofMinutes(5).toMillis());
    }

    @Test
    void manyConcurrentPromotersMoveEachDueJobExactlyOnce() throws Exception {
        int jobs = 500;
        adapter.publisher().publishAll(IntStream.range(0, jobs)
                .mapToObj(i -> Job.create(JobId.of("due-" + i), queue, "{}", NOW).notBefore(NOW.minusMillis(i)))
                .toList());
        int promoters = 6;
        executor = Executors.newFixedThreadPool(promoters);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Integer>> moved = new ArrayList<>();
        for (int i = 0; i < promoters; i++) {
            moved.add(executor.submit(() -> {
                start.await();
                int total = 0;
                for (int n = adapter.maintenance().promoteDue(queue, NOW, 7); n > 0;
                     n = adapter.maintenance().promoteDue(queue, NOW, 7)) {
                    total += n;
                }
                return total;
            }));
        }
        start.countDown();
        int total = 0;
        for (Future<Integer> future : moved) {
            total += future.get(60, TimeUnit.SECONDS);
        }

        assertThat(total).isEqualTo(jobs);
        assertThat(raw.commands().xlen(RawRedis.stream(queue))).isEqualTo(jobs);
        List<String> ids = adapter.leases().lease(queue, alice, 2 * jobs, SHORT_BLOCK).deliveries().stream()
                .map(d -> ((Delivery.Leased) d).job().id().value()).toList();
        assertThat(ids).hasSize(jobs).doesNotHaveDuplicates();
        assertThat(adapter.administration().stats(queue).delayed()).isZero();
    }

    @Test
    void twoRetriesOfTheSameJobStayTwoDelayedJobs() {
        Job job = Job.create(JobId.of("twice"), queue, "{}", NOW);
        adapter.publisher().publishAll(List.of(job, job));
        List<Delivery> both = adapter.leases().lease(queue, alice, 2, SHORT_BLOCK).deliveries();
        JobError error = JobError.retryable("E", "same error");

        both.forEach(d -> adapter.leases().retryLater(d, job.retriedAfter(error, NOW.plusSeconds(60))));

        assertThat(adapter.administration().stats(queue).delayed()).isEqualTo(2);
        assertThat(adapter.administration().stats(queue).pending()).isZero();
    }

    @Test
    void aDelayedMemberThatIsNoJobIsPromotedAsMalformedNotBlocking() {
        adapter.leases().declare(queue);
        raw.commands().zadd(RawRedis.delayed(queue), 1.0, bytes("not json"));
        adapter.publisher().publish(Job.create(JobId.of("after"), queue, "{}", NOW).notBefore(Instant.ofEpochMilli(2)));

        assertThat(adapter.maintenance().promoteDue(queue, NOW, 10)).isEqualTo(2);

        List<Delivery> deliveries = adapter.leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries();
        assertThat(deliveries.get(0)).isInstanceOfSatisfying(Delivery.Malformed.class,
                malformed -> assertThat(malformed.fields()).isEqualTo(Map.of("delayed_member", "not json")));
        assertThat(((Delivery.Leased) deliveries.get(1)).job().id()).isEqualTo(JobId.of("after"));
    }

    @Test
    void aRetryOfAnEntryNoLongerPendingIsNotScheduled() {
        adapter.publisher().publish(Job.create(JobId.of("done-elsewhere"), queue, "{}", NOW));
        Delivery delivery = single(adapter.leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        adapter.leases().acknowledge(queue, List.of(delivery.id()));

        Job job = ((Delivery.Leased) delivery).job();
        adapter.leases().retryLater(delivery, job.retriedAfter(JobError.retryable("E", "late"), NOW));
        adapter.leases().deadLetter(delivery,
                DeadLetter.of(job, DeadLetterReason.EXHAUSTED, JobError.permanent("E", "x"), 1, NOW));

        assertThat(adapter.administration().stats(queue).delayed()).isZero();
        assertThat(adapter.administration().stats(queue).dead()).isZero();
    }

    @Test
    void aLostConsumerGroupIsRecreatedAndConsumingGoesOn() {
        adapter.leases().declare(queue);
        raw.commands().xgroupDestroy(RawRedis.stream(queue), RawRedis.group(queue));
        raw.append(queue, bytes("job_id"), bytes("after-loss"), bytes("payload"), bytes("{}"));

        List<Delivery> deliveries = adapter.leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries();

        assertThat(deliveries).singleElement().satisfies(d ->
                assertThat(((Delivery.Leased) d).job().id()).isEqualTo(JobId.of("after-loss")));
        raw.commands().xgroupDestroy(RawRedis.stream(queue), RawRedis.group(queue));
        assertThat(adapter.maintenance().reclaimAbandoned(queue, bob, Duration.ZERO, 10)).isEqualTo(Reclaimed.NONE);
        assertThat(adapter.administration().stats(queue).consumers()).isEmpty();
    }

    @Test
    void aJobWorkersWouldRejectIsNotPublishedNorAnyOfItsBatch() {
        Job fine = Job.create(JobId.of("fine"), queue, "{}", NOW);
        Job clash = fine.withHeaders(Map.of("attempt", "7"));
        Job huge = Job.create(JobId.of("huge"), queue, "x".repeat(PayloadLimit.DEFAULT.maxBytes() + 1), NOW);

        assertThatThrownBy(() -> adapter.publisher().publishAll(List.of(fine, clash)))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("attempt");
        assertThatThrownBy(() -> adapter.publisher().publish(huge))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("limit");

        assertThat(raw.commands().xlen(RawRedis.stream(queue))).isZero();
    }

    @Test
    void aGroupCreatedAtTheEndSkipsWhatTheStreamAlreadyHeld() {
        raw.append(queue, bytes("job_id"), bytes("old"), bytes("payload"), bytes("{}"));
        RedisAdapter.Config config = new RedisAdapter.Config(TestRedis.uri(), "-workers", PayloadLimit.DEFAULT,
                Duration.ofSeconds(10), true);
        try (RedisAdapter atEnd = RedisAdapter.open(config, Clock.systemUTC())) {
            atEnd.leases().declare(queue);
            atEnd.publisher().publish(Job.create(JobId.of("new"), queue, "{}", NOW));

            List<Delivery> deliveries = atEnd.leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries();

            assertThat(deliveries).extracting(d -> ((Delivery.Leased) d).job().id().value()).containsExactly("new");
        }
    }

    @Test
    void findLooksInEveryPlace() {
        adapter.publisher().publish(Job.create(JobId.of("delayed"), queue, "{}", NOW).notBefore(NOW.plusSeconds(600)));
        adapter.publisher().publish(Job.create(JobId.of("dead"), queue, "{}", NOW));
        Delivery dying = single(adapter.leases().lease(queue, alice, 1, SHORT_BLOCK).deliveries());
        adapter.leases().deadLetter(dying, DeadLetter.of(((Delivery.Leased) dying).job(), DeadLetterReason.POISON,
                JobError.permanent("poison", "delivered 6 times"), 6, NOW));

        assertThat(adapter.administration().find(queue, JobId.of("delayed"))).hasValueSatisfying(s ->
                assertThat(s).isEqualTo(new JobSighting.Delayed(
                        Job.create(JobId.of("delayed"), queue, "{}", NOW).notBefore(NOW.plusSeconds(600)),
                        NOW.plusSeconds(600))));
        assertThat(adapter.administration().find(queue, JobId.of("dead"))).hasValueSatisfying(s ->
                assertThat(s).isInstanceOfSatisfying(JobSighting.Dead.class, dead -> {
                    assertThat(dead.deadLetter().letter().reason()).isEqualTo(DeadLetterReason.POISON);
                    assertThat(dead.deadLetter().letter().attempts()).isEqualTo(6);
                    assertThat(dead.deadLetter().letter().deadAt()).isEqualTo(NOW);
                }));
    }

    @Test
    void acknowledgingManyIdsAtOnceEmptiesThePendingList() {
        int jobs = 450;
        adapter.publisher().publishAll(IntStream.range(0, jobs)
                .mapToObj(i -> Job.create(JobId.of("ack-" + i), queue, "{}", NOW)).toList());
        List<Delivery> all = adapter.leases().lease(queue, alice, jobs, SHORT_BLOCK).deliveries();
        assertThat(adapter.administration().stats(queue).pending()).isEqualTo(jobs);

        adapter.leases().acknowledge(queue, all.stream().map(Delivery::id).toList());

        assertThat(adapter.administration().stats(queue).pending()).isZero();
        Set<String> ids = new HashSet<>();
        all.forEach(d -> ids.add(((Delivery.Leased) d).job().id().value()));
        assertThat(ids).hasSize(jobs);
    }

    private void makeIdle(DeliveryId id, Duration idle) {
        raw.makeIdle(queue, id.value(), pending(id).getConsumer(), idle);
    }

    private PendingMessage pending(DeliveryId id) {
        return single(raw.commands().xpending(RawRedis.stream(queue), RawRedis.group(queue),
                Range.create(id.value(), id.value()), Limit.from(1)));
    }

    private static <T> T single(List<T> items) {
        assertThat(items).hasSize(1);
        return items.get(0);
    }
}
