package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PauseTest {

    @Test
    void doublesWithEveryFailureUpToFiveSeconds() {
        Pause pause = new Pause();

        assertThat(LongStream.generate(pause::next).limit(9).toArray())
                .containsExactly(100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000);
    }

    @Test
    void aSuccessStartsAgainAtTheFirstPause() {
        Pause pause = new Pause();
        pause.next();
        pause.next();

        pause.reset();

        assertThat(pause.next()).isEqualTo(Pause.FIRST_MILLIS);
    }
}
