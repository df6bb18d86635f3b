package dev.baton.bootstrap.faults;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A worker's threads in a line each, from a {@code jcmd <pid> Thread.print} dump: what a stalled run reports, small
 * enough for a CI log. Only the main thread (where a start that hangs hangs) and Baton's own threads are kept, each
 * with its state and the frame that says what it waits in: the first of Baton's code, else the first of all.
 */
final class ThreadSummary {
    private static final Pattern HEADER = Pattern.compile("^\"(main|baton-[^\"]+)\"");
    private static final Pattern STATE = Pattern.compile("java\\.lang\\.Thread\\.State: (\\S+)");
    private static final Pattern FRAME = Pattern.compile("^\\s+at (\\S+)\\(");

    private ThreadSummary() {
    }

    /** @return a line per kept thread, {@code name STATE in frame}, in the dump's order */
    static List<String> of(String dump) {
        List<String> lines = new ArrayList<>();
        for (String block : dump.split("\\R\\R")) {
            Matcher header = HEADER.matcher(block.strip());
            if (header.find()) {
                lines.add(header.group(1) + " " + state(block) + " in " + waitingIn(block));
            }
        }
        return lines;
    }

    private static String state(String block) {
        Matcher state = STATE.matcher(block);
        return state.find() ? state.group(1) : "?";
    }

    private static String waitingIn(String block) {
        String first = null;
        for (String line : block.split("\\R")) {
            Matcher frame = FRAME.matcher(line);
            if (frame.find()) {
                String method = frame.group(1);
                if (method.startsWith("dev.baton.")) {
                    return first == null || first.equals(method) ? method : method + " < " + first;
                }
                first = first == null ? method : first;
            }
        }
        return first == null ? "no Java frame" : first;
    }
}
