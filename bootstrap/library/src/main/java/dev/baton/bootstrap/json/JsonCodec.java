package dev.baton.bootstrap.json;

/**
 * What Baton reads and writes as JSON, on whichever Jackson the application has: Jackson 3 when it is on the
 * classpath (Spring Boot 4), else Jackson 2 ({@link #onClasspath()}, docs/SPRING.md#jackson). Trees are plain Java:
 * {@code Map<String, Object>} (in document order), {@code List<Object>}, {@code String}, {@code Number},
 * {@code Boolean} and {@code null}, so that no Jackson type leaves this package.
 */
public interface JsonCodec {
    /** A record (or a tree) as compact JSON. */
    String write(Object value);

    /** A tree as indented JSON, for people to read: the admin API's answers, the CLI's {@code --json}. */
    String writeIndented(Object tree);

    /**
     * Binds strictly: every record component must be present (a missing one is not silently null or 0) and a
     * primitive refuses null; unknown fields are ignored, so that a producer can send a new field before every
     * worker knows it.
     *
     * @throws JsonException saying where (e.g. {@code field 'items[0].sku'}) and what is wrong
     */
    <T> T bind(String json, Class<T> type);

    /** @throws JsonException when {@code json} is not JSON (or is empty) */
    Object parse(String json);

    /**
     * The codec of the Jackson on the classpath, chosen once.
     *
     * @throws dev.baton.bootstrap.config.ConfigException when there is no Jackson, naming what to add
     */
    static JsonCodec onClasspath() {
        return JsonCodecs.onClasspath();
    }
}
