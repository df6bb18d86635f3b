package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.domain.InvalidValueException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

class JobThreadsTest {

    @ParameterizedTest
    @CsvSource({"auto, AUTO", "Platform, PLATFORM", " VIRTUAL , VIRTUAL"})
    void parsesTheThreeChoicesInAnyCase(String text, JobThreads expected) {
        assertThat(JobThreads.parse(text)).isEqualTo(expected);
        assertThat(JobThreads.parse(expected.label())).isEqualTo(expected);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "fibers", "virtual threads"})
    void anythingElseIsRejectedWithTheChoices(String text) {
        assertThatThrownBy(() -> JobThreads.parse(text)).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("auto, platform or virtual").hasMessageContaining("'" + text + "'");
    }

    @ParameterizedTest
    @CsvSource({"17, 1, PLATFORM", "21, 1, PLATFORM", "23, 1, PLATFORM", "24, 1, VIRTUAL", "25, 1, VIRTUAL",
            "25, 2, PLATFORM", "25, 256, PLATFORM"})
    void autoChoosesVirtualThreadsWhereSynchronizedNoLongerPinsAndJobsCommitAlone(int javaRelease, int batchCommit,
                                                                                  JobThreads expected) {
        assertThat(JobThreads.AUTO.resolve(javaRelease, batchCommit)).isEqualTo(expected);
        assertThat(JobThreads.PLATFORM.resolve(javaRelease, batchCommit)).isEqualTo(JobThreads.PLATFORM);
    }

    @ParameterizedTest
    @ValueSource(ints = {17, 20})
    void virtualThreadsBeforeJava21AreRefusedWithTheRuntimeNamed(int javaRelease) {
        assertThatThrownBy(() -> JobThreads.VIRTUAL.resolve(javaRelease, 1)).isInstanceOf(InvalidValueException.class)
                .hasMessageContaining("need Java 21").hasMessageContaining("Java " + javaRelease);
        assertThat(JobThreads.VIRTUAL.resolve(21, 1)).isEqualTo(JobThreads.VIRTUAL);
        assertThat(JobThreads.VIRTUAL.resolve(25, 256)).isEqualTo(JobThreads.VIRTUAL); // asked for: even batched
    }

    /** On Java 17 this runs the platform and auto choices; on 21+ the virtual one too (CI runs both). */
    @ParameterizedTest
    @EnumSource(JobThreads.class)
    void theExecutorRunsJobsOnTheThreadsTheChoiceResolvesTo(JobThreads choice) throws Exception {
        int release = Runtime.version().feature();
        if (choice == JobThreads.VIRTUAL && release < JobThreads.VIRTUAL_SINCE) {
            assertThatThrownBy(() -> choice.resolve(1)).isInstanceOf(InvalidValueException.class);
            return;
        }
        ExecutorService executor = choice.executor(2, 1, "w-job");
        try {
            Thread first = executor.submit(Thread::currentThread).get(10, TimeUnit.SECONDS);
            Thread second = CompletableFuture.supplyAsync(Thread::currentThread, executor).get(10, TimeUnit.SECONDS);

            assertThat(first.getName()).startsWith("w-job-");
            assertThat(second.getName()).startsWith("w-job-");
            assertThat(isVirtual(first)).isEqualTo(choice.resolve(1) == JobThreads.VIRTUAL);
            assertThat(first.isDaemon()).isTrue(); // a forgotten worker never keeps the JVM alive
            // the worker's fetcher and acknowledgement sender are of the same kind as its jobs
            Thread sender = choice.threads(1, "w-ack").newThread(() -> { });
            assertThat(sender.getName()).isEqualTo("w-ack-1");
            assertThat(isVirtual(sender)).isEqualTo(isVirtual(first));
            assertThat(sender.isDaemon()).isTrue();
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
