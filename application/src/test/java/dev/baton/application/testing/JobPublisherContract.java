package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobPublisher;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The guarantees every {@link JobPublisher} gives, as tests; see {@link TransportFixture} for the setup. */
public abstract class JobPublisherContract extends TransportFixture {

    @Test
    void blockedLeaseReturnsAJobPublishedWhileItWaits() throws Exception {
        CompletableFuture<List<Delivery>> waiting =
                CompletableFuture.supplyAsync(() -> leases().lease(queue, alice, 5, Duration.ofSeconds(10)));

        publisher().publish(job("late"));

        assertThat(jobIds(waiting.get(8, TimeUnit.SECONDS))).containsExactly("late");
    }

    @Test
    void publishAllKeepsOrderAndDelaysJobsWithNotBefore() {
        publisher().publishAll(List.of(job("a"), job("b").notBefore(BASE.plusSeconds(3600)), job("c")));

        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK))).containsExactly("a", "c");
        assertThat(administration().stats(queue).delayed()).isEqualTo(1);
    }
}
