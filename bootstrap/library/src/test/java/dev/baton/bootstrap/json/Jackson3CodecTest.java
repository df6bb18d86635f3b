package dev.baton.bootstrap.json;

/** The contract on Jackson 3, as a Spring Boot 4 application has it. */
class Jackson3CodecTest extends JsonCodecContract {
    private final JsonCodec codec = new Jackson3Codec();

    @Override
    JsonCodec codec() {
        return codec;
    }
}
