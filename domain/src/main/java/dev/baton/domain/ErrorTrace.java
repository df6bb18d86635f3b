package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * A bounded stack trace of a failure, kept with its dead letter so that an operator sees where a job died without
 * the worker's log: the cause chain, at most {@link #MAX_FRAMES} frames of each throwable, at most
 * {@link #MAX_LENGTH} characters in all (a dead-letter entry must stay small).
 */
public record ErrorTrace(String text) {
    public static final int MAX_FRAMES = 20;
    public static final int MAX_LENGTH = 8000;
    private static final int MAX_CAUSES = 5;

    public ErrorTrace {
        text = Text.abbreviate(notNull(text, "trace"), MAX_LENGTH);
    }

    public static ErrorTrace of(Throwable failure) {
        StringBuilder trace = new StringBuilder();
        // a cause chain can be a cycle (e.initCause(e's own cause's cause)): each throwable is written once
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Throwable current = notNull(failure, "failure");
        for (int depth = 0; current != null && depth < MAX_CAUSES && seen.add(current); depth++) {
            trace.append(depth == 0 ? "" : "Caused by: ").append(current).append('\n');
            StackTraceElement[] frames = current.getStackTrace();
            for (int i = 0; i < Math.min(frames.length, MAX_FRAMES); i++) {
                trace.append("\tat ").append(frames[i]).append('\n');
            }
            if (frames.length > MAX_FRAMES) {
                trace.append("\t... ").append(frames.length - MAX_FRAMES).append(" more\n");
            }
            current = current.getCause();
        }
        return new ErrorTrace(trace.toString().stripTrailing());
    }
}
