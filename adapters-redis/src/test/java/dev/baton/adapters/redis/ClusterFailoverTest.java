package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.testing.TestCluster;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.TransportException;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import io.lettuce.core.cluster.SlotHash;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A master of a Redis Cluster is killed (SIGKILL) while consumers work: its replica is promoted, the consumers carry
 * on, and only what asynchronous replication may lose is lost — jobs written to the dead master in its last moments.
 */
class ClusterFailoverTest {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterFailoverTest.class);
    private static final int PARTITIONS = 6;
    private static final Duration MIN_IDLE = Duration.ofSeconds(2);

    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean running = new AtomicBoolean(true);

    @Test
    void consumersCarryOnWhenAMasterDiesAndItsReplicaTakesOver() throws Exception {
        ExecutorService consumers = Executors.newFixedThreadPool(2);
        try (TestCluster cluster = TestCluster.start();
             RedisAdapter adapter = RedisAdapter.open(new RedisAdapter.Config(cluster.uri(), "-workers",
                     PayloadLimit.DEFAULT, Duration.ofSeconds(2), false).withClusterNodes(cluster.clusterNodes()),
                     Clock.systemUTC())) {
            QueueName queue = Stream.generate(() -> QueueName.of("failover-" + UUID.randomUUID().toString()
                    .substring(0, 8))).filter(name -> new HashSet<>(masters(cluster, name)).size() == 3)
                    .findFirst().orElseThrow();
            adapter.declarePartitions(queue, PARTITIONS);
            List<Job> before = jobs(queue, "before", 600);
            // the short command timeout can cut a first batch short on a busy machine: publishing again is safe
            await("publish before the crash").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .untilAsserted(() -> adapter.publisher().publishAll(before));
            await("replicas in sync").atMost(Duration.ofSeconds(30)).until(cluster::replicated);
            for (String name : List.of("c1", "c2")) {
                consumers.submit(() -> consume(adapter, queue, ConsumerName.of(name)));
            }
            await("consumers at work").atMost(Duration.ofSeconds(30)).until(() -> seen.size() >= 100);

            List<Integer> masters = masters(cluster, queue);
            int victim = masters.get(0);
            Set<Integer> victimPartitions = new HashSet<>();
            IntStream.range(0, PARTITIONS).filter(p -> masters.get(p) == victim).forEach(victimPartitions::add);
            cluster.kill(victim);
            await("the replica notices").atMost(Duration.ofSeconds(10)).until(() -> !cluster.healthy());
            List<Job> during = new ArrayList<>();
            List<Job> published = new ArrayList<>();
            for (int i = 0; !cluster.healthy() || i < 20; i++) {
                Job job = job(queue, "during-" + i);
                during.add(job);
                try {
                    adapter.publisher().publish(job);
                    published.add(job);
                } catch (TransportException e) {
                    LOG.info("publish of {} failed during the failover: {}", job.id(), e.getMessage());
                }
            }
            assertThat(cluster.masterPorts()).hasSize(3).doesNotContain(victim);
            List<Job> after = jobs(queue, "after", 300);
            await("publish after the failover").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .untilAsserted(() -> adapter.publisher().publishAll(after));

            await("every job written before the crash or after the failover is delivered")
                    .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> seen.containsAll(ids(before)) && seen.containsAll(ids(after)));
            await("jobs published during the failover to surviving masters are delivered")
                    .atMost(Duration.ofSeconds(30)).until(() -> published.stream()
                            .filter(job -> !victimPartitions.contains(
                                    QueueLayout.partitionOf(job.id().value(), PARTITIONS)))
                            .allMatch(job -> seen.contains(job.id().value())));
            List<String> lost = published.stream().map(job -> job.id().value()).filter(id -> !seen.contains(id))
                    .toList();
            LOG.info("failover: {} publishes attempted while the master was down, {} succeeded, {} of those lost "
                    + "(written to the dead master, not yet replicated): {}", during.size(), published.size(),
                    lost.size(), lost);
            running.set(false);
            consumers.shutdown();
            assertThat(consumers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            running.set(false);
            consumers.shutdownNow();
        }
    }

    /** A consumer's loop: lease, acknowledge, and take over what a consumer left idle (as a worker does). */
    private void consume(RedisAdapter adapter, QueueName queue, ConsumerName consumer) {
        while (running.get()) {
            List<Delivery> leased = new ArrayList<>();
            try {
                leased.addAll(adapter.maintenance().reclaimAbandoned(queue, consumer, MIN_IDLE, 50).deliveries());
            } catch (TransportException e) {
                LOG.info("consumer {} carries on after: {}", consumer, e.getMessage());
            }
            try {
                // while a master is down, a lease still delivers from the partitions of the others
                leased.addAll(adapter.leases().lease(queue, consumer, 20, Duration.ofMillis(200)).deliveries());
                leased.forEach(delivery -> seen.add(((Delivery.Leased) delivery).job().id().value()));
                adapter.leases().acknowledge(queue, leased.stream().map(Delivery::id).toList());
            } catch (TransportException e) {
                LOG.info("consumer {} carries on after: {}", consumer, e.getMessage());
            }
        }
    }

    private static int masterOf(QueueName queue, int partition, TestCluster cluster) {
        return cluster.masterOf(SlotHash.getSlot(RawKeys.keys(queue, partition, PARTITIONS).streamKey()));
    }

    private static List<Integer> masters(TestCluster cluster, QueueName queue) {
        return IntStream.range(0, PARTITIONS).mapToObj(p -> masterOf(queue, p, cluster)).toList();
    }

    private static List<Job> jobs(QueueName queue, String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> job(queue, prefix + "-" + i)).toList();
    }

    private static Job job(QueueName queue, String id) {
        return Job.create(JobId.of(id), queue, "{}", Instant.parse("2030-01-01T00:00:00Z"));
    }

    private static List<String> ids(List<Job> jobs) {
        return jobs.stream().map(job -> job.id().value()).toList();
    }
}
