package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.domain.InvalidValueException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
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
    void autoIsVirtualWhereSynchronizedDoesNotPinAndJobsCommitAlone(int javaRelease, int batchCommit,
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
}
