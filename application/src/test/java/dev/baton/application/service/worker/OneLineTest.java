package dev.baton.application.service.worker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class OneLineTest {

    @Test
    void aMessageOfManyLinesBecomesItsFirstLineMarkedCut() {
        assertThat(OneLine.of("duplicate key\nDetail: Key (id)=(7) exists\r\n  at line 2"))
                .isEqualTo("duplicate key …");
        assertThat(OneLine.of("bare carriage return\rforged log line")).isEqualTo("bare carriage return …");
    }

    @Test
    void otherControlCharactersAreEscapedAndTrailingBreaksDropped() {
        assertThat(OneLine.of("red \u001b[31malert\u001b[0m\ttab"))
                .isEqualTo("red \\u001b[31malert\\u001b[0m\\u0009tab");
        assertThat(OneLine.of("ends with a break\r\n")).isEqualTo("ends with a break");
        assertThat(OneLine.of("")).isEmpty();
    }
}
