package dev.baton.bootstrap.json;

import dev.baton.domain.PayloadLimit;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How much of a dead letter's long texts a JSON shows: {@link #WHOLE} for one dead letter and the CLI, {@link #LIST}
 * for a page of them, so that a 10 MB payload does not travel with every page (docs/OPERATIONS.md#endpoints). A cut
 * text keeps its beginning, and a field {@code <name>_truncated} beside it gives the sizes of the whole.
 *
 * @param payloadChars a payload's (and a malformed entry's raw field's) characters shown
 * @param errorChars   an error message's characters shown
 * @param traceChars   a stack trace's characters shown
 */
public record Excerpt(int payloadChars, int errorChars, int traceChars) {
    /** Nothing cut. */
    public static final Excerpt WHOLE = new Excerpt(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);
    /** What a list shows: 2,000 characters of a payload, 500 of an error message, 4,000 of a trace. */
    public static final Excerpt LIST = new Excerpt(2_000, 500, 4_000);

    /** Puts {@code text} under {@code name}, cut to {@code max} characters, with the marker when it was cut. */
    public static void put(Map<String, Object> json, String name, String text, int max) {
        json.put(name, shown(text, max));
        Map<String, Object> whole = whole(text, max);
        if (whole != null) {
            json.put(name + "_truncated", whole);
        }
    }

    /** The beginning of {@code text} that is shown: at most {@code max} characters, never half a surrogate pair. */
    static String shown(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        return text.substring(0, Character.isHighSurrogate(text.charAt(max - 1)) ? max - 1 : max);
    }

    /** The sizes of {@code text} when {@link #shown} cuts it (characters shown, characters, UTF-8 bytes), else null. */
    static Map<String, Object> whole(String text, int max) {
        if (text == null || text.length() <= max) {
            return null;
        }
        Map<String, Object> whole = new LinkedHashMap<>();
        whole.put("shown_chars", shown(text, max).length());
        whole.put("chars", text.length());
        whole.put("bytes", PayloadLimit.bytes(text));
        return whole;
    }
}
