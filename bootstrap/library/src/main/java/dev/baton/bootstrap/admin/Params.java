package dev.baton.bootstrap.admin;

import dev.baton.domain.DeadLetterReason;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/** The admin API's parameter values (query string and body alike), each refused with a 400 naming it. */
final class Params {
    private Params() {
    }

    /** An ISO-8601 instant, {@code 2026-12-01T10:00:00Z}. */
    static Instant instant(String name, String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            throw AdminHttpException.badRequest(name + " must be an ISO-8601 instant such as 2026-12-01T10:00:00Z,"
                    + " got '" + text + "'");
        }
    }

    /** A dead-letter reason, in any case: {@code exhausted}, {@code POISON}. */
    static DeadLetterReason reason(String text) {
        try {
            return DeadLetterReason.valueOf(text.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw AdminHttpException.badRequest("unknown reason '" + text + "': expected one of "
                    + Arrays.toString(DeadLetterReason.values()).toLowerCase(Locale.ROOT));
        }
    }

    /** A page size: {@code fallback} when absent, else 1..{@code max}. */
    static int limit(Optional<String> text, int fallback, int max) {
        if (text.isEmpty()) {
            return fallback;
        }
        try {
            int limit = Integer.parseInt(text.get());
            if (limit >= 1 && limit <= max) {
                return limit;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw AdminHttpException.badRequest("limit must be a whole number in 1.." + max + ", got '" + text.get() + "'");
    }
}
