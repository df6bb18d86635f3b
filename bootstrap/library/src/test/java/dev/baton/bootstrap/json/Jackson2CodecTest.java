package dev.baton.bootstrap.json;

/** The contract on Jackson 2, as a plain Java service or a Spring Boot 3.5 application has it. */
class Jackson2CodecTest extends JsonCodecContract {
    private final JsonCodec codec = new Jackson2Codec();

    @Override
    JsonCodec codec() {
        return codec;
    }
}
