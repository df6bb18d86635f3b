package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.Lease;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.InvalidValueException;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import dev.baton.domain.JobId;
import dev.baton.domain.PartitionStats;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueStats;
import dev.baton.domain.StoredDeadLetter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What partitioning adds to the contract: routing, per-key order, leasing over all partitions, metadata checks. */
abstract class PartitionedQueueScenarios {
    static final Instant ENQUEUED = Instant.parse("2030-01-01T00:00:00Z");
    final ConsumerName alice = ConsumerName.of("alice");
    final ConsumerName bob = ConsumerName.of("bob");
    final List<QueueName> used = new ArrayList<>();

    abstract RedisAdapter adapter();

    /** Another adapter on the same Redis (another process, as far as the metadata goes). */
    abstract RedisAdapter openAnother();

    abstract RawKeys raw();

    @AfterEach
    void forgetQueues() {
        used.forEach(queue -> raw().forget(queue, 8));
    }

    QueueName queue(String prefix) {
        QueueName queue = QueueName.of(prefix + "-" + UUID.randomUUID().toString().substring(0, 8));
        used.add(queue);
        return queue;
    }

    static Job job(QueueName queue, String id) {
        return Job.create(JobId.of(id), queue, "{}", ENQUEUED);
    }

    static Job keyed(QueueName queue, String id, String key) {
        return job(queue, id).withHeaders(Map.of(QueueLayout.PARTITION_KEY, key));
    }

    /** Leases until nothing comes, acknowledging as it goes. */
    List<Delivery> drain(QueueName queue, ConsumerName consumer, int max) {
        List<Delivery> all = new ArrayList<>();
        for (List<Delivery> batch = adapter().leases().lease(queue, consumer, max, Duration.ZERO).deliveries();
             !batch.isEmpty();
             batch = adapter().leases().lease(queue, consumer, max, Duration.ZERO).deliveries()) {
            all.addAll(batch);
            adapter().leases().acknowledge(queue, batch.stream().map(Delivery::id).toList());
        }
        return all;
    }

    static String jobId(Delivery delivery) {
        return ((Delivery.Leased) delivery).job().id().value();
    }

    @Test
    void jobsAreRoutedByIdOverEveryPartitionAndLeasedFromAll() {
        QueueName queue = queue("spread");
        adapter().declarePartitions(queue, 4);
        adapter().publisher().publishAll(IntStream.range(0, 100).mapToObj(i -> job(queue, "job-" + i)).toList());

        for (int p = 0; p < 4; p++) {
            assertThat(raw().commands().xlen(RawKeys.keys(queue, p, 4).stream())).as("partition " + p).isPositive();
        }
        assertThat(raw().commands().exists(RawKeys.keys(queue, 0, 1).stream())).isZero();
        List<Delivery> leased = drain(queue, alice, 30);
        assertThat(leased).extracting(PartitionedQueueScenarios::jobId).hasSize(100).doesNotHaveDuplicates();
        assertThat(leased).allSatisfy(delivery -> assertThat(delivery.id().value()).matches("[0-3]/\\d+-\\d+"));
        assertThat(leased).allSatisfy(delivery -> assertThat(delivery.id().value()).startsWith(
                QueueLayout.partitionOf(jobId(delivery), 4) + "/"));
        QueueStats stats = adapter().administration().stats(queue);
        assertThat(stats.length()).isEqualTo(100);
        assertThat(stats.pending()).isZero();
        assertThat(stats.consumers()).singleElement().satisfies(c -> assertThat(c.name()).isEqualTo("alice"));
        List<PartitionStats> partitions = adapter().overview().partitionStats(queue);
        assertThat(partitions).extracting(PartitionStats::index).containsExactly(0, 1, 2, 3);
        for (PartitionStats partition : partitions) {
            assertThat(partition.length()).as("partition " + partition.index())
                    .isEqualTo(raw().commands().xlen(RawKeys.keys(queue, partition.index(), 4).stream()));
        }
        assertThat(adapter().overview().partitionStats(queue("single"))).isEmpty();
    }

    @Test
    void aLeaseOnSeveralPartitionsTellsWhichOfItsJobsAreCancelled() {
        QueueName queue = queue("cancels");
        adapter().declarePartitions(queue, 4);
        adapter().publisher().publishAll(IntStream.range(0, 20).mapToObj(i -> job(queue, "job-" + i)).toList());
        adapter().administration().cancel(queue, JobId.of("job-3"), Instant.now());
        adapter().administration().cancel(queue, JobId.of("job-17"), Instant.now());

        Lease lease = adapter().leases().lease(queue, alice, 20, Duration.ZERO);

        assertThat(lease.deliveries()).hasSize(20);
        assertThat(lease.cancelled()).containsExactlyInAnyOrder(JobId.of("job-3"), JobId.of("job-17"));
    }

    @Test
    void jobsWithTheSameKeyAreDeliveredInTheOrderEnqueued() {
        QueueName queue = queue("order");
        adapter().declarePartitions(queue, 4);
        List<Job> jobs = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            jobs.add(keyed(queue, "k" + (i % 5) + "-" + (i / 5), "customer-" + (i % 5)));
        }
        adapter().publisher().publishAll(jobs.subList(0, 50));
        jobs.subList(50, 100).forEach(adapter().publisher()::publish);

        Map<String, List<Integer>> byKey = new LinkedHashMap<>();
        List<Delivery> batch;
        int turn = 0;
        do {
            ConsumerName consumer = turn++ % 2 == 0 ? alice : bob;
            batch = adapter().leases().lease(queue, consumer, 7, Duration.ZERO).deliveries();
            for (Delivery delivery : batch) {
                Job job = ((Delivery.Leased) delivery).job();
                byKey.computeIfAbsent(job.headers().get(QueueLayout.PARTITION_KEY), k -> new ArrayList<>())
                        .add(Integer.parseInt(job.id().value().substring(3)));
            }
            adapter().leases().acknowledge(queue, batch.stream().map(Delivery::id).toList());
        } while (!batch.isEmpty());

        assertThat(byKey).hasSize(5);
        byKey.forEach((key, sequence) -> assertThat(sequence).as(key)
                .containsExactlyElementsOf(IntStream.range(0, 20).boxed().toList()));
    }

    @Test
    void aBlockingLeaseWaitsOnEveryPartitionAndLosesNothing() throws Exception {
        QueueName queue = queue("block");
        adapter().declarePartitions(queue, 4);
        List<Job> oneEach = new ArrayList<>();
        for (int i = 0; oneEach.size() < 4; i++) {
            String id = "late-" + i;
            if (QueueLayout.partitionOf(id, 4) == oneEach.size()) {
                oneEach.add(job(queue, id));
            }
        }
        CompletableFuture<List<Delivery>> waiting = CompletableFuture.supplyAsync(
                () -> adapter().leases().lease(queue, alice, 1, Duration.ofSeconds(20)).deliveries());
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);
        // the job for the last partition: a lease waiting on one partition only would not see it
        adapter().publisher().publish(oneEach.get(3));

        assertThat(waiting.get(10, TimeUnit.SECONDS)).extracting(PartitionedQueueScenarios::jobId)
                .containsExactly(oneEach.get(3).id().value());

        CompletableFuture<List<Delivery>> more = CompletableFuture.supplyAsync(
                () -> adapter().leases().lease(queue, bob, 1, Duration.ofSeconds(20)).deliveries());
        await().pollDelay(Duration.ofMillis(300)).until(() -> true);
        adapter().publisher().publishAll(oneEach.subList(0, 3));
        List<Delivery> next = more.get(10, TimeUnit.SECONDS);
        assertThat(next).hasSize(1);
        adapter().leases().acknowledge(queue, next.stream().map(Delivery::id).toList());
        // one round may deliver from several partitions at once: the surplus comes with bob's next leases
        Set<String> seen = new HashSet<>(next.stream().map(PartitionedQueueScenarios::jobId).toList());
        seen.addAll(drain(queue, bob, 1).stream().map(PartitionedQueueScenarios::jobId).toList());
        assertThat(seen).containsExactlyInAnyOrderElementsOf(
                oneEach.subList(0, 3).stream().map(job -> job.id().value()).toList());
        assertThat(adapter().administration().stats(queue).pending()).isEqualTo(1);
    }

    @Test
    void retriesAndDeadLettersStayInTheirPartition() {
        QueueName queue = queue("moves");
        adapter().declarePartitions(queue, 3);
        adapter().publisher().publishAll(IntStream.range(0, 12).mapToObj(i -> job(queue, "m-" + i)).toList());
        List<Delivery> leased = adapter().leases().lease(queue, alice, 12, Duration.ZERO).deliveries();
        assertThat(leased).hasSize(12);

        for (Delivery delivery : leased.subList(0, 6)) {
            Job job = ((Delivery.Leased) delivery).job();
            adapter().leases().retryLater(delivery, job.retriedAfter(JobError.retryable("E", "x"),
                    ENQUEUED));
        }
        for (Delivery delivery : leased.subList(6, 12)) {
            Job job = ((Delivery.Leased) delivery).job();
            adapter().leases().deadLetter(delivery, DeadLetter.of(job,
                    DeadLetterReason.EXHAUSTED, JobError.retryable("E", "x"), 1,
                    ENQUEUED));
        }

        QueueStats stats = adapter().administration().stats(queue);
        assertThat(stats.pending()).isZero();
        assertThat(stats.delayed()).isEqualTo(6);
        assertThat(stats.dead()).isEqualTo(6);
        for (Delivery delivery : leased) {
            String partition = delivery.id().value().substring(0, 2);
            assertThat(adapter().administration().find(queue, JobId.of(jobId(delivery)))).isPresent();
            assertThat(partition).isEqualTo(QueueLayout.partitionOf(jobId(delivery), 3) + "/");
        }
        List<StoredDeadLetter> letters = adapter().administration().deadLetters(queue, Optional.empty(), 4);
        List<StoredDeadLetter> rest =
                adapter().administration().deadLetters(queue, Optional.of(letters.get(3).id()), 10);
        assertThat(letters.size() + rest.size()).isEqualTo(6);
        assertThat(adapter().maintenance().promoteDue(queue, ENQUEUED, 4)).isEqualTo(4);
        assertThat(adapter().maintenance().promoteDue(queue, ENQUEUED, 10)).isEqualTo(2);
        assertThat(adapter().administration().redrive(queue, new DeadLetterSelection.ByIds(
                List.of(letters.get(0).id(), rest.get(0).id())))).isEqualTo(2);
        assertThat(drain(queue, bob, 5)).extracting(PartitionedQueueScenarios::jobId).hasSize(8)
                .doesNotHaveDuplicates();
        assertThat(adapter().administration().stats(queue).dead()).isEqualTo(4);
    }

    @Test
    void aPartitionCountThatDiffersFromTheRecordedOneIsAClearError() {
        QueueName queue = queue("meta");
        adapter().declarePartitions(queue, 3);
        adapter().declarePartitions(queue, 3);
        assertThat(adapter().partitions(queue)).isEqualTo(3);
        try (RedisAdapter other = openAnother()) {
            assertThat(other.partitions(queue)).isEqualTo(3);
            assertThatThrownBy(() -> other.declarePartitions(queue, 4))
                    .isInstanceOf(InvalidValueException.class)
                    .hasMessageContaining("queue " + queue + " has 3 partition(s) in Redis, not the 4 declared here");

            // a drained queue may be repartitioned; whoever declared the old count finds out at its next declare
            other.repartition(queue, 5);
            assertThat(other.partitions(queue)).isEqualTo(5);
            assertThatThrownBy(() -> adapter().leases().declare(queue))
                    .isInstanceOf(InvalidValueException.class)
                    .hasMessageContaining("has 5 partition(s) in Redis, not the 3 declared here");
        }

        QueueName unpartitioned = queue("legacy");
        adapter().publisher().publish(job(unpartitioned, "old"));
        assertThatThrownBy(() -> adapter().declarePartitions(unpartitioned, 2))
                .isInstanceOf(InvalidValueException.class).hasMessageContaining("has 1 partition(s) in Redis");
        assertThatThrownBy(() -> adapter().repartition(unpartitioned, 2))
                .isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("still holds work (undelivered entries in partitions [0], 0 pending");
        assertThat(raw().commands().exists(Namespace.DEFAULT.meta(unpartitioned))).isZero();
    }

    @Test
    void deletingAQueueRemovesEveryPartitionAndItsCount() {
        QueueName queue = queue("delete");
        adapter().declarePartitions(queue, 3);
        adapter().publisher().publishAll(IntStream.range(0, 9).mapToObj(i -> job(queue, "x-" + i)).toList());
        for (int p = 0; p < 3; p++) { // what a suspect and a dead letter leave besides the streams
            QueueKeys keys = RawKeys.keys(queue, p, 3);
            raw().commands().hset(keys.isolated(), Utf8.bytes("1-0"), Utf8.bytes("1"));
            raw().commands().hset(keys.deadJobs(), Utf8.bytes("job"), Utf8.bytes("1-0"));
            raw().commands().hset(keys.totals(), Utf8.bytes("completed"), Utf8.bytes("1"));
        }
        adapter().administration().cancel(queue, JobId.of("x-0"), Instant.now());

        adapter().deleteQueue(queue);

        for (int p = 0; p < 3; p++) {
            QueueKeys keys = RawKeys.keys(queue, p, 3);
            assertThat(raw().commands().exists(keys.stream(), keys.delayed(), keys.dead(), keys.deadJobs(),
                    keys.isolated(), keys.totals())).isZero();
        }
        assertThat(raw().commands().exists(Namespace.DEFAULT.meta(queue), Namespace.DEFAULT.cancelled(queue))).isZero();
        assertThat(adapter().partitions(queue)).isEqualTo(1);
        adapter().declarePartitions(queue, 2);
        assertThat(adapter().partitions(queue)).isEqualTo(2);
    }

    static RedisAdapter.Config config(String uri) {
        return RedisAdapter.Config.of(uri);
    }

    static Clock clock() {
        return Clock.systemUTC();
    }
}
