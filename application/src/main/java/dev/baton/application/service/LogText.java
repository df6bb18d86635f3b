package dev.baton.application.service;

/**
 * Values from outside (job errors, ids, user names, paths, headers) as they may go into a log line: a line break in
 * one would break the line apart or forge a new one ({@code "\n… INFO … operator login ok"}), an escape sequence
 * would colour a terminal. Every log statement that carries such a value passes it through here, in the application
 * and in the admin server alike. The whole text stays where it came from (the ledger, the dead letter, the request).
 */
public final class LogText {
    private LogText() {
    }

    /**
     * {@code value} with line breaks written as {@code \r} and {@code \n} and other control characters as Java writes
     * them (an escape character becomes backslash, {@code u001b}); {@code null} as {@code null}.
     */
    public static String escaped(Object value) {
        String text = String.valueOf(value);
        StringBuilder line = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            append(line, text.charAt(i));
        }
        return line.toString();
    }

    /**
     * The first line of {@code text} (an error message: a SQL error's detail, a stack trace someone put into it),
     * escaped as {@link #escaped}; an ellipsis marks lines left out.
     */
    public static String firstLine(String text) {
        StringBuilder line = new StringBuilder(Math.min(text.length(), 256));
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                return text.substring(i).isBlank() ? line.toString() : line.append(" …").toString();
            }
            append(line, c);
        }
        return line.toString();
    }

    private static void append(StringBuilder line, char c) {
        if (c == '\n') {
            line.append("\\n");
        } else if (c == '\r') {
            line.append("\\r");
        } else if (Character.isISOControl(c)) {
            line.append(String.format("\\u%04x", (int) c));
        } else {
            line.append(c);
        }
    }
}
