package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.RawRedis.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.StreamMessage;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The untyped parts of Redis replies read as Java values, without a server. */
class RedisValuesTest {

    @Test
    void anXinfoReplyReadsAsAMapByNameIgnoringADanglingName() {
        Map<String, Object> info = RedisValues.info(List.of(bytes("name"), bytes("orders-workers"), bytes("pending"),
                3L, bytes("dangling")));

        assertThat(info).containsOnlyKeys("name", "pending");
        assertThat(RedisValues.text(info.get("name"))).isEqualTo("orders-workers");
        assertThat(info.get("pending")).isEqualTo(3L);
    }

    @Test
    void textShowsInvalidUtf8EscapedAndNumbersAsTheyAre() {
        assertThat(RedisValues.text(new byte[] {'o', 'k', (byte) 0xFF})).isEqualTo("ok\\xFF");
        assertThat(RedisValues.text(42L)).isEqualTo("42");
    }

    @Test
    void anEntrysFieldsFlattenInTheOrderRedisSentThem() {
        Map<byte[], byte[]> body = new LinkedHashMap<>();
        body.put(bytes("job_id"), bytes("j-1"));
        body.put(bytes("attempt"), bytes("2"));

        List<byte[]> fromStream = RedisValues.fields(new StreamMessage<>(bytes("stream"), "1-0", body));
        List<byte[]> fromScript = RedisValues.fields(List.of(bytes("job_id"), bytes("j-1")));

        assertThat(fromStream).map(RedisValuesTest::text).containsExactly("job_id", "j-1", "attempt", "2");
        assertThat(fromScript).map(RedisValuesTest::text).containsExactly("job_id", "j-1");
    }

    @Test
    void aNumberArgumentIsItsDecimalText() {
        assertThat(text(RedisValues.number(-1_234))).isEqualTo("-1234");
    }

    private static String text(byte[] value) {
        return new String(value, StandardCharsets.UTF_8);
    }
}
