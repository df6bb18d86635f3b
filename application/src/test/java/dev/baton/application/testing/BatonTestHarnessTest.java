package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.NoHandlerPolicy;
import dev.baton.domain.QueueName;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The harness users test their handlers with: every drain ends with the queues empty, whatever the handler did. */
class BatonTestHarnessTest {
    private static final QueueName ORDERS = QueueName.of("orders");

    private final AtomicInteger calls = new AtomicInteger();

    @Test
    void aSucceedingJobCompletesWithItsEffectCommittedAndAcknowledged() {
        BatonTestHarness harness = BatonTestHarness.builder()
                .handler("orders", context -> {
                    calls.incrementAndGet();
                    context.unwrap(InMemoryEffects.class).put("shipped", context.job().id().value());
                    return Optional.of("shipped");
                })
                .build();
        harness.enqueue(order("o-1"));

        Drained drained = harness.drain();

        assertThat(drained.completed()).extracting(Job::id).containsExactly(JobId.of("o-1"));
        assertThat(drained.retried()).isEmpty();
        assertThat(drained.deadLettered()).isEmpty();
        assertThat(calls).hasValue(1);
        assertThat(harness.committedEffects()).containsExactly(Map.entry("shipped", "o-1"));
        assertThat(harness.completion(ORDERS, JobId.of("o-1"))).hasValueSatisfying(completion ->
                assertThat(completion.result()).contains("shipped"));
        assertThat(harness.transport().stats(ORDERS).pending()).isZero();
        assertThat(harness.clock().instant()).isEqualTo(BatonTestHarness.START);
    }

    @Test
    void aJobFailingTwiceIsRetriedAtItsBackoffByTheClockThenCompletes() {
        BatonTestHarness harness = BatonTestHarness.builder().handler("orders", context -> {
            if (calls.incrementAndGet() <= 2) {
                context.unwrap(InMemoryEffects.class).put("attempt-" + context.attempt(), "rolled back");
                throw new IOException("carrier unreachable");
            }
            return Optional.empty();
        }).build();
        harness.enqueue(order("o-1"));

        Drained drained = harness.drain();

        assertThat(drained.retried()).extracting(Job::currentAttempt).containsExactly(1, 2);
        assertThat(drained.completed()).extracting(Job::currentAttempt).containsExactly(3);
        assertThat(harness.completion(ORDERS, JobId.of("o-1"))).hasValueSatisfying(completion ->
                assertThat(completion.attempt()).isEqualTo(3));
        assertThat(harness.committedEffects()).isEmpty(); // the failed attempts' writes rolled back
        // the default policy's backoff, without jitter: 1 s, then 2 s
        assertThat(harness.clock().instant()).isEqualTo(BatonTestHarness.START.plusSeconds(3));
    }

    @Test
    void drainDueLeavesARetryDelayedUntilTheClockIsAdvancedToIt() {
        BatonTestHarness harness = BatonTestHarness.builder().handler("orders", context -> {
            if (calls.incrementAndGet() == 1) {
                throw new IOException("carrier unreachable");
            }
            return Optional.empty();
        }).build();
        harness.enqueue(order("o-1"));

        Drained first = harness.drainDue();
        Drained early = harness.drainDue();
        harness.advance(Duration.ofSeconds(1));
        Drained due = harness.drainDue();

        assertThat(first.retried()).hasSize(1);
        assertThat(first.completed()).isEmpty();
        assertThat(early.completed()).isEmpty();
        assertThat(due.completed()).extracting(Job::id).containsExactly(JobId.of("o-1"));
        assertThat(calls).hasValue(2);
    }

    @Test
    void aJobThatAlwaysFailsIsDeadLetteredExhaustedAfterItsAttempts() {
        BatonTestHarness harness = BatonTestHarness.builder().handler("orders", context -> {
            calls.incrementAndGet();
            throw new IllegalStateException("always broken");
        }).build();
        harness.enqueue(order("o-1"));

        Drained drained = harness.drain();

        assertThat(calls).hasValue(BatonTestHarness.RETRY_POLICY.maxAttempts());
        assertThat(drained.completed()).isEmpty();
        assertThat(drained.retried()).hasSize(BatonTestHarness.RETRY_POLICY.maxAttempts() - 1);
        assertThat(drained.deadLettered()).singleElement().satisfies(letter -> {
            assertThat(letter.reason()).isEqualTo(DeadLetterReason.EXHAUSTED);
            assertThat(letter.jobId()).contains("o-1");
            assertThat(letter.lastError().message()).contains("always broken");
        });
        assertThat(harness.deadLetters(ORDERS)).hasSize(1);
        assertThat(harness.transport().stats(ORDERS).delayed()).isZero();
    }

    @Test
    void aNonRetryableFailureIsDeadLetteredAtOnce() {
        BatonTestHarness harness = BatonTestHarness.builder().handler("orders", context -> {
            calls.incrementAndGet();
            throw new NonRetryableException("an order needs an orderId");
        }).build();
        harness.enqueue(order("o-1"));

        Drained drained = harness.drain();

        assertThat(calls).hasValue(1);
        assertThat(drained.deadLettered()).extracting(DeadLetter::reason)
                .containsExactly(DeadLetterReason.NON_RETRYABLE);
    }

    @Test
    void aMalformedEntryAndAnUnhandledJobAreDeadLetteredNotRun() {
        BatonTestHarness harness = BatonTestHarness.builder().handler("orders", context -> {
            calls.incrementAndGet();
            return Optional.empty();
        }).build();
        QueueName imports = QueueName.of("imports");
        harness.appendRaw(imports, Map.of("payload", "{}")); // no job_id
        harness.enqueue(order("o-1").withType("refund"));

        Drained drained = harness.drain();

        assertThat(calls).hasValue(0);
        assertThat(drained.deadLettered()).extracting(DeadLetter::reason)
                .containsExactly(DeadLetterReason.MALFORMED, DeadLetterReason.NO_HANDLER);
        assertThat(drained.deadLettered().get(1).lastError().message()).isEqualTo("no handler named refund on this"
                + " worker (its handlers: orders); waited 15m for a worker that has one");
        assertThat(harness.clock().instant()).as("the drain followed the job's waits through the grace")
                .isEqualTo(BatonTestHarness.START.plus(NoHandlerPolicy.DEFAULT.grace()));
        assertThat(harness.transport().stats(imports).pending()).isZero();
        assertThat(harness.transport().stats(ORDERS).pending()).isZero();
    }

    @Test
    void aDrainReportsOnlyWhatHappenedDuringIt() {
        BatonTestHarness harness = BatonTestHarness.builder().handler("orders", context -> {
            throw new NonRetryableException("no");
        }).build();
        harness.enqueue(order("o-1"));
        harness.drain();
        harness.enqueue(order("o-2"));

        Drained second = harness.drain();

        assertThat(second.deadLettered()).extracting(DeadLetter::jobId).containsExactly(Optional.of("o-2"));
        assertThat(harness.deadLetters(ORDERS)).hasSize(2);
    }

    @Test
    void jobsThatHandlersEnqueueToOtherQueuesRunInTheSameDrain() {
        QueueName receipts = QueueName.of("receipts");
        BatonTestHarness.Builder builder = BatonTestHarness.builder().handler("receipts", context -> {
            calls.incrementAndGet();
            return Optional.empty();
        });
        BatonTestHarness[] harness = new BatonTestHarness[1];
        harness[0] = builder.handler("orders", context -> {
            harness[0].enqueuer().enqueue(EnqueueJobUseCase.Command.now(receipts,
                    JobId.of("receipt-" + context.job().id()), "{}").after(Duration.ofMinutes(5)));
            return Optional.empty();
        }).build();
        harness[0].enqueue(order("o-1"));

        Drained drained = harness[0].drain();

        assertThat(drained.completed()).extracting(Job::id)
                .containsExactly(JobId.of("o-1"), JobId.of("receipt-o-1"));
        assertThat(calls).hasValue(1);
    }

    @Test
    void theHarnessNeedsNoTestLibraryAtRuntime() throws IOException {
        // users get the test-jar without its test-scoped dependencies: the harness must not reference them
        List<Class<?>> harness = List.of(BatonTestHarness.class, Drained.class, InMemoryStreamTransport.class,
                InMemoryQueue.class, InMemoryExecutionLedger.class, InMemoryEffects.class, InMemoryDeadLetters.class,
                MutableClock.class, WireFields.class, EntryId.class, EntryIds.class);
        for (Class<?> type : harness.stream().flatMap(top -> List.of(top.getNestMembers()).stream()).toList()) {
            String file = type.getName().substring(type.getPackageName().length() + 1) + ".class";
            try (InputStream bytes = type.getResourceAsStream(file)) {
                String constants = new String(bytes.readAllBytes(), StandardCharsets.ISO_8859_1);
                assertThat(constants).as(type.getName()).doesNotContain("org/junit", "org/assertj",
                        "org/awaitility");
            }
        }
    }

    private static EnqueueJobUseCase.Command order(String id) {
        return EnqueueJobUseCase.Command.now(ORDERS, JobId.of(id), "{\"orderId\":\"" + id + "\"}");
    }
}
