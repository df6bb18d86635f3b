package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.Delivery;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.JobError;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** The guarantees every {@link JobPublisher} gives, as tests; see {@link TransportFixture} for the setup. */
public abstract class JobPublisherContract extends TransportFixture {

    @Test
    void blockedLeaseReturnsAJobPublishedWhileItWaits() throws Exception {
        CompletableFuture<List<Delivery>> waiting =
                CompletableFuture.supplyAsync(
                        () -> leases().lease(queue, alice, 5, Duration.ofSeconds(10)).deliveries());

        publisher().publish(job("late"));

        assertThat(jobIds(waiting.get(8, TimeUnit.SECONDS))).containsExactly("late");
    }

    @Test
    void publishAllKeepsOrderAndDelaysJobsWithNotBefore() {
        publisher().publishAll(List.of(job("a"), job("b").notBefore(BASE.plusSeconds(3600)), job("c")));

        assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).containsExactly("a", "c");
        assertThat(administration().stats(queue).delayed()).isEqualTo(1);
    }

    @Nested
    class DeadLetteringWhatWasNeverPublished {
        /**
         * A dead letter from no stream entry is listed like a malformed entry's, with its raw fields verbatim, once per
         * origin; redriven, it goes back verbatim and is leased as the malformed entry it is.
         */
        @Test
        void aMalformedOneIsListedOncePerOriginAndRedrivenVerbatim() {
            Map<String, String> raw = Map.of("job_id", "", "payload", "{}", "tenant", "acme");
            DeadLetter letter = DeadLetter.malformed(queue, raw, "job id must have 1..256 characters, got 0", BASE);

            publisher().deadLetterUnpublished(letter, "outbox:7");
            publisher().deadLetterUnpublished(letter, "outbox:7");
            publisher().deadLetterUnpublished(letter, "outbox:8");

            List<StoredDeadLetter> dead = administration().deadLetters(queue, Optional.empty(), 10);
            assertThat(dead).hasSize(2).allSatisfy(stored -> {
                assertThat(stored.letter().job()).isEmpty();
                assertThat(stored.letter().rawFields()).isEqualTo(raw);
                assertThat(stored.letter().reason()).isEqualTo(DeadLetterReason.MALFORMED);
                assertThat(stored.letter().lastError().message())
                        .isEqualTo("job id must have 1..256 characters, got 0");
                assertThat(stored.letter().deadAt()).isEqualTo(BASE);
            });
            assertThat(administration().stats(queue).dead()).isEqualTo(2);

            int moved = administration().redrive(queue, new DeadLetterSelection.ByIds(List.of(dead.get(0).id())));

            assertThat(moved).isOne();
            assertThat(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries()).singleElement()
                    .isInstanceOfSatisfying(Delivery.Malformed.class,
                            malformed -> assertThat(malformed.fields()).containsAllEntriesOf(raw));
        }

        /** A job's dead letter is written once per job id, whatever its origin, and redriven as the job. */
        @Test
        void aJobsLetterIsWrittenOncePerJobIdAndRedrivenAsTheJob() {
            DeadLetter letter = DeadLetter.of(job("over"), DeadLetterReason.MALFORMED,
                    JobError.permanent("malformed", "payload over the limit"), 0, BASE);

            publisher().deadLetterUnpublished(letter, "outbox:1");
            publisher().deadLetterUnpublished(letter, "outbox:2");

            assertThat(administration().deadLetters(queue, Optional.empty(), 10)).singleElement()
                    .satisfies(stored -> assertThat(stored.letter().jobId()).contains("over"));
            administration().redrive(queue, new DeadLetterSelection.All());
            assertThat(jobIds(leases().lease(queue, alice, 10, SHORT_BLOCK).deliveries())).containsExactly("over");
        }
    }

}
