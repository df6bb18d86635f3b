package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;

/**
 * Where a page of a ledger search ended: the time and key of its last, oldest outcome. The next page holds the
 * outcomes strictly before it in the search's order (time, then key, both descending), so paging neither skips nor
 * repeats a row while new outcomes arrive.
 */
public record OutcomeCursor(Instant at, String key) {
    private static final char SEPARATOR = '\n';

    public OutcomeCursor {
        notNull(at, "at");
        notNull(key, "key");
    }

    public static OutcomeCursor after(JobOutcome outcome) {
        return new OutcomeCursor(outcome.at(), outcome.key());
    }

    /** An opaque token for a URL. */
    public String encode() {
        return Base64.getUrlEncoder().withoutPadding()
                .encodeToString((at + String.valueOf(SEPARATOR) + key).getBytes(StandardCharsets.UTF_8));
    }

    /** @throws InvalidValueException for a token that {@link #encode} did not make */
    public static OutcomeCursor decode(String token) {
        try {
            String text = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
            int separator = text.indexOf(SEPARATOR);
            if (separator < 0) {
                throw new InvalidValueException("malformed cursor '" + token + "'");
            }
            return new OutcomeCursor(Instant.parse(text.substring(0, separator)), text.substring(separator + 1));
        } catch (IllegalArgumentException | DateTimeParseException e) {
            throw new InvalidValueException("malformed cursor '" + token + "'");
        }
    }

    /** Whether {@code outcome} comes after this cursor in the search's order (older, or as old with a lower key). */
    public boolean precedes(JobOutcome outcome) {
        int byTime = outcome.at().compareTo(at);
        return byTime < 0 || (byTime == 0 && outcome.key().compareTo(key) < 0);
    }
}
