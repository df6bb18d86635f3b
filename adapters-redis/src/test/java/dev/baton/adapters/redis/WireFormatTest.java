package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pieces of the wire format that need no server. */
class WireFormatTest {

    @Test
    void jsonStringsRoundTripAnyText() {
        List<String> values = List.of("", "plain", "\"quoted\" \\ back/slash", "line\nfeed\ttab\r\u0001\u001f",
                "ünïcödé € 😀", "[\"not\",\"nested\"]");

        String json = JsonStrings.encode(values);

        assertThat(json).doesNotContain("\n").doesNotContain("\u0001");
        assertThat(JsonStrings.decode(json)).isEqualTo(values);
        assertThat(JsonStrings.decode(" [ \"a\" , \"\\u00fc\\/\" ] ")).containsExactly("a", "ü/");
    }

    @Test
    void jsonStringsRejectAnythingElse() {
        assertThatThrownBy(() -> JsonStrings.decode("not json")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JsonStrings.decode("[1]")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JsonStrings.decode("[\"a\"] x")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JsonStrings.decode("[\"a")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void utf8IsDecodedStrictlyAndInvalidBytesAreShown() {
        byte[] valid = "grüß €".getBytes(StandardCharsets.UTF_8);
        byte[] invalid = {'a', (byte) 0xC3, '(', 'b', (byte) 0xFF};
        byte[] truncated = {'x', (byte) 0xE2, (byte) 0x82};

        assertThat(Utf8.strict(valid)).contains("grüß €");
        assertThat(Utf8.strict(invalid)).isEmpty();
        assertThat(Utf8.escaped(invalid)).isEqualTo("a\\xC3(b\\xFF");
        assertThat(Utf8.escaped(truncated)).isEqualTo("x\\xE2\\x82");
    }

    @Test
    void entryIdsOrderAsRedisDoes() {
        assertThat(EntryId.parse("10-2")).isGreaterThan(EntryId.parse("10-1")).isLessThan(EntryId.parse("11-0"));
        assertThat(EntryId.parse("5-18446744073709551615").next()).isEqualTo(EntryId.parse("6-0"));
        assertThat(EntryId.parse("7")).isEqualTo(new EntryId(7, 0));
        assertThat(EntryId.parse("1700000000000-3").toString()).isEqualTo("1700000000000-3");
    }
}
