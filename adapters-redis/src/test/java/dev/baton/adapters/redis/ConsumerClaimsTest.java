package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.adapters.redis.testing.TestRedis;
import dev.baton.domain.ConsumerName;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Consumer names on a real Redis, each adapter standing for one process: a name a live process holds is numbered for
 * the next, a process that ends (its connections close, as at a crash) frees its name, and processes starting
 * together never pick the same one.
 */
class ConsumerClaimsTest {
    private final ConsumerName host = ConsumerName.of("claims." + UUID.randomUUID().toString().substring(0, 8));
    private final List<RedisAdapter> processes = new ArrayList<>();

    @AfterEach
    void close() {
        processes.forEach(RedisAdapter::close);
    }

    private RedisAdapter process() {
        return process(RedisAdapter.Config.of(TestRedis.uri()));
    }

    private RedisAdapter process(RedisAdapter.Config config) {
        RedisAdapter adapter = RedisAdapter.open(config, Clock.systemUTC());
        processes.add(adapter);
        return adapter;
    }

    @Test
    void aSecondProcessTakesTheHostsNextNumberAndNamesItsConnection() {
        RedisAdapter first = process();
        RedisAdapter second = process();

        assertThat(first.maintenance().claimConsumer(host)).isEqualTo(host);
        assertThat(second.maintenance().claimConsumer(host)).isEqualTo(host.numbered(2));
        try (RawRedis raw = new RawRedis(TestRedis.uri())) {
            assertThat(raw.commands().clientList()).contains(" name=baton:" + host + " ")
                    .contains(" name=baton:" + host.numbered(2) + " ");
        }
    }

    @Test
    void aProcessThatEndsWithoutReleasingFreesItsNameForItsRestart() {
        RedisAdapter crashed = process();
        assertThat(crashed.maintenance().claimConsumer(host)).isEqualTo(host);
        RedisAdapter other = process();
        assertThat(other.maintenance().claimConsumer(host)).isEqualTo(host.numbered(2));

        crashed.close(); // its connections close, as the kernel closes a killed process's sockets

        assertThat(process().maintenance().claimConsumer(host)).isEqualTo(host);
    }

    @Test
    void processesStartingTogetherClaimDistinctNames() throws Exception {
        List<RedisAdapter> starting = IntStream.range(0, 6).mapToObj(i -> process()).toList();
        ExecutorService threads = Executors.newFixedThreadPool(starting.size());
        List<Future<ConsumerName>> claims;
        try {
            claims = threads.invokeAll(starting.stream()
                    .<Callable<ConsumerName>>map(adapter -> () -> adapter.maintenance().claimConsumer(host)).toList());
        } finally {
            threads.shutdown();
        }
        List<ConsumerName> names = new ArrayList<>();
        for (Future<ConsumerName> claim : claims) {
            names.add(claim.get());
        }

        assertThat(names).containsExactlyInAnyOrder(host, host.numbered(2), host.numbered(3), host.numbered(4),
                host.numbered(5), host.numbered(6));
    }

    @Test
    void namesAreClaimedPerNamespace() {
        RedisAdapter shop = process(RedisAdapter.Config.of(TestRedis.uri()).withNamespace("claims-shop"));
        RedisAdapter billing = process(RedisAdapter.Config.of(TestRedis.uri()).withNamespace("claims-billing"));

        assertThat(shop.maintenance().claimConsumer(host)).isEqualTo(host);
        assertThat(billing.maintenance().claimConsumer(host)).isEqualTo(host);
    }
}
