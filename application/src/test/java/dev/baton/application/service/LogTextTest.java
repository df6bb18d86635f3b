package dev.baton.application.service;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class LogTextTest {

    @Nested
    class Escaped {
        @Test
        void lineBreaksAndControlCharactersAreWrittenOut() {
            assertThat(LogText.escaped("intruder\r\n2026-12-01 INFO FORGED login ok"))
                    .isEqualTo("intruder\\r\\n2026-12-01 INFO FORGED login ok");
            assertThat(LogText.escaped("red \u001b[31malert\u0000\ttab"))
                    .isEqualTo("red \\u001b[31malert\\u0000\\u0009tab");
        }

        @Test
        void printableTextAndNullStayAsTheyAre() {
            assertThat(LogText.escaped("/api/queues/mail é ✓")).isEqualTo("/api/queues/mail é ✓");
            assertThat(LogText.escaped(null)).isEqualTo("null");
        }
    }

    @Nested
    class FirstLine {
        @Test
        void aMessageOfManyLinesBecomesItsFirstLineMarkedCut() {
            assertThat(LogText.firstLine("duplicate key\nDetail: Key (id)=(7) exists\r\n  at line 2"))
                    .isEqualTo("duplicate key …");
            assertThat(LogText.firstLine("bare carriage return\rforged log line")).isEqualTo("bare carriage return …");
        }

        @Test
        void otherControlCharactersAreEscapedAndTrailingBreaksDropped() {
            assertThat(LogText.firstLine("red \u001b[31malert\u001b[0m\ttab"))
                    .isEqualTo("red \\u001b[31malert\\u001b[0m\\u0009tab");
            assertThat(LogText.firstLine("ends with a break\r\n")).isEqualTo("ends with a break");
            assertThat(LogText.firstLine("")).isEmpty();
        }
    }
}
