package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.require;

/** The largest payload, in UTF-8 bytes, that a queue accepts. Configured, 1 MiB by default. */
public record PayloadLimit(int maxBytes) {
    public static final PayloadLimit DEFAULT = new PayloadLimit(1024 * 1024);

    public PayloadLimit {
        require(maxBytes > 0, "payload limit must be positive, got " + maxBytes);
    }

    public boolean admits(String payload) {
        return bytes(payload) <= maxBytes;
    }

    /** Throws a clear error for an oversized payload, naming both sizes. */
    public String check(String payload) {
        int size = bytes(payload);
        if (size > maxBytes) {
            throw new InvalidValueException("payload has " + size + " bytes, more than the limit of " + maxBytes);
        }
        return payload;
    }

    /** UTF-8 length without copying the payload. */
    public static int bytes(String payload) {
        int bytes = 0;
        for (int i = 0; i < payload.length(); i++) {
            char c = payload.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < payload.length()
                    && Character.isLowSurrogate(payload.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
