package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class FailureBackoffTest {

    @Test
    void doublesWithEveryFailureUpToFiveSeconds() {
        FailureBackoff backoff = new FailureBackoff();

        assertThat(LongStream.generate(backoff::next).limit(9).toArray())
                .containsExactly(100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000);
    }

    @Test
    void aSuccessStartsAgainAtTheFirstWait() {
        FailureBackoff backoff = new FailureBackoff();
        backoff.next();
        backoff.next();

        backoff.reset();

        assertThat(backoff.next()).isEqualTo(FailureBackoff.FIRST_MILLIS);
    }
}
