package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.adapters.redis.testing.TestSentinel;
import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.TransportException;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Redis behind Sentinel: one adapter, opened with a {@code redis-sentinel://} URI, publishes and consumes while the
 * primary is killed (SIGKILL) and the Sentinels promote its replica. The same adapter — its shared connection, its
 * pipeline, its blocking-read connections and its scripts — carries on against the new primary without being
 * reopened.
 */
class SentinelFailoverTest {
    private static final Logger LOG = LoggerFactory.getLogger(SentinelFailoverTest.class);
    private static final Duration MIN_IDLE = Duration.ofSeconds(2);

    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean running = new AtomicBoolean(true);

    @Test
    void theAdapterCarriesOnWhenSentinelsReplaceTheDeadPrimary() throws Exception {
        ExecutorService consumers = Executors.newFixedThreadPool(2);
        try (TestSentinel sentinel = TestSentinel.start();
             RedisAdapter adapter = RedisAdapter.open(new RedisAdapter.Config(sentinel.uri(), "-workers",
                     PayloadLimit.DEFAULT, Duration.ofSeconds(2), false), Clock.systemUTC())) {
            QueueName queue = QueueName.of("sentinel-" + UUID.randomUUID().toString().substring(0, 8));
            List<Job> before = jobs(queue, "before", 400);
            adapter.publisher().publishAll(before);
            await("replica in sync").atMost(Duration.ofSeconds(30)).until(sentinel::replicated);
            for (String name : List.of("c1", "c2")) {
                consumers.submit(() -> consume(adapter, queue, ConsumerName.of(name)));
            }
            await("consumers at work").atMost(Duration.ofSeconds(30)).until(() -> seen.size() >= 50);

            int oldPrimary = sentinel.masterPort();
            int replica = sentinel.replicaPort();
            assertThat(cachedScripts(sentinel, replica)).as("a replica gets no SCRIPT LOAD: the new primary will "
                    + "answer NOSCRIPT").isZero();
            sentinel.kill(oldPrimary);
            await("the Sentinels promote the replica").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(200)).ignoreExceptions()
                    .until(() -> sentinel.promotedOtherThan(oldPrimary));
            int newPrimary = sentinel.masterPort();
            assertThat(newPrimary).isEqualTo(replica);
            await("the adapter reaches the new primary").atMost(Duration.ofSeconds(30))
                    .until(adapter::isReachable);

            List<Job> after = jobs(queue, "after", 200);
            // the first publish may still meet the dead primary's connection: publishing again is safe
            await("publish after the failover").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .untilAsserted(() -> adapter.publisher().publishAll(after));
            await("every job published before the kill (replicated) or after the failover is delivered")
                    .atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                    .until(() -> seen.containsAll(ids(before)) && seen.containsAll(ids(after)));
            assertThat(sentinel.cli(newPrimary, "XLEN", RawKeys.keys(queue, 0, 1).streamKey()).trim())
                    .as("the new primary holds every entry").isEqualTo(Integer.toString(before.size() + after.size()));
            assertThat(cachedScripts(sentinel, newPrimary)).as("scripts loaded again after NOSCRIPT").isPositive();
            LOG.info("Sentinel failover: primary :{} killed, replica :{} promoted; scripts loaded again on it: {}",
                    oldPrimary, newPrimary, cachedScripts(sentinel, newPrimary));
            running.set(false);
            consumers.shutdown();
            assertThat(consumers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            running.set(false);
            consumers.shutdownNow();
        }
    }

    /** A consumer's loop: lease, acknowledge (a script), and take over what a consumer left idle. */
    private void consume(RedisAdapter adapter, QueueName queue, ConsumerName consumer) {
        while (running.get()) {
            List<Delivery> leased = new ArrayList<>();
            try {
                leased.addAll(adapter.maintenance().reclaimAbandoned(queue, consumer, MIN_IDLE, 50).deliveries());
                leased.addAll(adapter.leases().lease(queue, consumer, 20, Duration.ofMillis(200)).deliveries());
                adapter.leases().acknowledge(queue, leased.stream().map(Delivery::id).toList());
                leased.forEach(delivery -> seen.add(((Delivery.Leased) delivery).job().id().value()));
            } catch (TransportException e) {
                LOG.info("consumer {} carries on after: {}", consumer, e.getMessage());
            }
        }
    }

    private static int cachedScripts(TestSentinel sentinel, int port) {
        return Integer.parseInt(sentinel.info(port, "memory", "number_of_cached_scripts"));
    }

    private static List<Job> jobs(QueueName queue, String prefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> Job.create(JobId.of(prefix + "-" + i), queue, "{}",
                Instant.parse("2030-01-01T00:00:00Z"))).toList();
    }

    private static List<String> ids(List<Job> jobs) {
        return jobs.stream().map(job -> job.id().value()).toList();
    }
}
