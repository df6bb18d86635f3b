package dev.baton.bootstrap.json;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The words for a payload that does not bind, the same on either Jackson: where (the field's path, e.g.
 * {@code field 'items[0].count'}) and what, without Jackson's hints and excerpts, which mean nothing to a producer.
 */
final class BindProblems {
    private BindProblems() {
    }

    /** @param path field names ({@code String}) and array indexes ({@code Integer}), outermost first */
    static String at(List<Object> path, String what) {
        if (path.isEmpty()) {
            return what;
        }
        String where = path.stream().map(step -> step instanceof Integer index ? "[" + index + "]" : "." + step)
                .collect(Collectors.joining()).replaceFirst("^\\.", "");
        return "field '" + where + "': " + what;
    }

    static String notValid(Class<?> target, Object value) {
        return "not a valid " + target.getSimpleName() + " ('" + value + "')";
    }

    static String refused(Class<?> record, Throwable reason) {
        return "refused by " + record.getSimpleName() + " (" + reason.getMessage() + ")";
    }

    /** Jackson's parse error up to its advice: {@code Unrecognized token 'ship'}. */
    static String notJson(String message) {
        return "not JSON (" + message.split(": ", 2)[0] + ")";
    }

    /**
     * Jackson reports a missing component and a null primitive with the same exception as any other mismatch: only
     * its message tells them apart, and it ends in advice about Jackson's settings.
     *
     * @param target the type that did not bind, when Jackson names one
     */
    static String mismatch(String message, Class<?> target) {
        if (message.startsWith("Missing creator property")) {
            return "missing";
        }
        if (target != null && message.startsWith("Cannot map `null`")) {
            return "null, but " + target.getSimpleName() + " cannot be null";
        }
        return message.lines().findFirst().orElse(message);
    }
}
