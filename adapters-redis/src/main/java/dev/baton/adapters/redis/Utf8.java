package dev.baton.adapters.redis;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/** Strict UTF-8 for stream values: any client may write raw bytes, and a lenient decoder would hide corruption. */
final class Utf8 {
    private Utf8() {
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** The text when {@code bytes} are valid UTF-8, else empty. */
    static Optional<String> strict(byte[] bytes) {
        Decoded decoded = decode(bytes);
        return decoded.valid ? Optional.of(decoded.text) : Optional.empty();
    }

    /** Valid sequences decoded, every invalid byte shown as {@code \xNN}: readable, and no corruption hidden. */
    static String escaped(byte[] bytes) {
        return decode(bytes).text;
    }

    /** Decodes bytes that Redis itself produced (ids, names, numbers): always ASCII. */
    static String ascii(byte[] bytes) {
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    private record Decoded(String text, boolean valid) {
    }

    private static Decoded decode(byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        StringBuilder text = new StringBuilder(bytes.length);
        boolean valid = true;
        while (true) {
            CoderResult result = decoder.decode(in, out, true);
            out.flip();
            text.append(out);
            out.clear();
            if (result.isUnderflow()) {
                break;
            }
            if (result.isError()) {
                valid = false;
                for (int i = 0; i < result.length(); i++) {
                    text.append(String.format("\\x%02X", in.get() & 0xFF));
                }
            }
        }
        return new Decoded(text.toString(), valid);
    }
}
