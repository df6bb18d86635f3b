package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.domain.JobId;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The worker on the in-memory adapters when its transport or its ledger is down at start and comes up later: it backs
 * off, resumes without a restart, and acknowledges nothing that did not commit.
 */
class WorkerOutageTest extends WorkerFixture {
    /** Long enough for a worker that leases on regardless to take every job (it takes them in milliseconds). */
    private static final Duration A_WHILE = Duration.ofMillis(500);

    @Test
    void aLedgerDownAtStartStopsLeasingUntilItAnswers() {
        handlers.put("orders", counting("orders"));
        for (int i = 0; i < 10; i++) {
            enqueue("job-" + i);
        }
        ledger.setUnavailable(true);
        RunningWorker worker = start("w1", 1);

        await().atMost(WAIT).until(() -> transport.stats(queue).pending() > 0 && worker.counters().running() == 0);
        long leftPending = transport.stats(queue).pending();
        await().during(A_WHILE).atMost(WAIT).until(() -> transport.stats(queue).pending() == leftPending);
        assertThat(leftPending).as("what it leased before the ledger failed, no more").isLessThanOrEqualTo(2);
        assertThat(calls("orders")).hasValue(0);

        ledger.setUnavailable(false);
        await().atMost(WAIT).until(() -> worker.counters().completed() == 10 - leftPending);
        clock.advance(PAST_LEASE); // what was left pending comes back to a worker
        await().atMost(WAIT).until(() -> worker.counters().completed() == 10);

        assertThat(calls("orders")).hasValue(10);
        assertThat(transport.stats(queue).pending()).isZero();
        assertThat(ledger.countCompleted(queue)).isEqualTo(10);
    }

    @Test
    void aTransportDownAtStartIsWaitedForAndEveryJobRunsOnceItAnswers() {
        handlers.put("orders", counting("orders"));
        enqueue("waiting");
        enqueue.enqueue(EnqueueJobUseCase.Command.now(queue, JobId.of("delayed"), "{}").after(Duration.ofSeconds(30)));
        transport.setUnreachable(true);
        RunningWorker worker = start("w1", 2);

        await().during(A_WHILE).atMost(WAIT).until(() -> worker.isRunning() && calls("orders").get() == 0);

        transport.setUnreachable(false);
        await().atMost(WAIT).until(() -> worker.counters().completed() == 1);
        clock.advance(Duration.ofMinutes(1)); // the promotion loop, which failed meanwhile, moves the delayed job
        await().atMost(WAIT).until(() -> worker.counters().completed() == 2);

        assertThat(calls("orders")).hasValue(2);
        assertThat(transport.stats(queue).pending()).isZero();
    }
}
