package dev.baton.adapters.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

class ScriptVersionTest {

    @Test
    void versionsCompareAsNumbersPartByPart() {
        List<String> sorted = Stream.of("10", "2", "1.1", "1", "1.10", "1.2", "0")
                .map(ScriptVersion::parse).sorted().map(ScriptVersion::toString).toList();

        assertThat(sorted).containsExactly("0", "1", "1.1", "1.2", "1.10", "2", "10");
    }

    @Test
    void trailingZerosMakeNoOtherVersion() {
        assertThat(ScriptVersion.parse("1.0")).isEqualTo(ScriptVersion.parse("1")).hasSameHashCodeAs(
                ScriptVersion.parse("1"));
        assertThat(ScriptVersion.parse("1.0.1")).isNotEqualTo(ScriptVersion.parse("1.1"));
    }

    @Test
    void underscoresAreDotsAsTheHistoryRecordsThem() {
        assertThat(ScriptVersion.parse("1_1")).hasToString("1.1").isEqualTo(ScriptVersion.parse("1.1"));
    }

    @Test
    void aVersionIsNumbersOnly() {
        assertThatThrownBy(() -> ScriptVersion.parse("1a")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'1a' is not a version");
        assertThatThrownBy(() -> ScriptVersion.parse("1..2")).isInstanceOf(IllegalArgumentException.class);
    }
}
