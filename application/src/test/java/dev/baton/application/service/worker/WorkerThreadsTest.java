package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.service.JobThreads;
import dev.baton.domain.InvalidValueException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class WorkerThreadsTest {

    /** On Java 17 this runs the platform and auto choices; on 21+ the virtual one too (CI runs both). */
    @ParameterizedTest
    @EnumSource(JobThreads.class)
    void theExecutorRunsJobsOnTheThreadsTheChoiceResolvesTo(JobThreads choice) throws Exception {
        int release = Runtime.version().feature();
        if (choice == JobThreads.VIRTUAL && release < JobThreads.VIRTUAL_SINCE) {
            assertThatThrownBy(() -> choice.resolve(1)).isInstanceOf(InvalidValueException.class);
            return;
        }
        WorkerThreads threads = new WorkerThreads(choice, 1, "w");
        ExecutorService executor = threads.jobs(2);
        try {
            Thread first = executor.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
            Thread second = CompletableFuture.supplyAsync(Thread::currentThread, executor).get(10, TimeUnit.SECONDS);

            assertThat(first.getName()).startsWith("w-job-");
            assertThat(second.getName()).startsWith("w-job-");
            assertThat(isVirtual(first)).isEqualTo(choice.resolve(1) == JobThreads.VIRTUAL);
            assertThat(first.isDaemon()).isTrue(); // a forgotten worker never keeps the JVM alive
            // the worker's fetcher and acknowledgement sender are of the same kind as its jobs
            Thread sender = threads.ofJobKind("ack").newThread(() -> { });
            assertThat(sender.getName()).isEqualTo("w-ack-1");
            assertThat(isVirtual(sender)).isEqualTo(isVirtual(first));
            assertThat(sender.isDaemon()).isTrue();
            // the timers and loops are platform threads whatever runs the jobs
            Thread loop = threads.platform("loop").newThread(() -> { });
            assertThat(loop.getName()).isEqualTo("w-loop-1");
            assertThat(isVirtual(loop)).isFalse();
            assertThat(loop.isDaemon()).isTrue();
        } finally {
            executor.shutdownNow();
        }
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    static boolean isVirtual(Thread thread) throws ReflectiveOperationException {
        if (Runtime.version().feature() < JobThreads.VIRTUAL_SINCE) {
            return false;
        }
        return (boolean) Thread.class.getMethod("isVirtual").invoke(thread);
    }
}
