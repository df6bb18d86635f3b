package dev.baton.application.service.worker;

/**
 * Text as one log line: an error message can hold line breaks (a SQL error's detail, a stack trace someone put into
 * it), which would break a log line apart or forge new ones. The whole text stays in the ledger and the dead letter.
 */
final class OneLine {
    private OneLine() {
    }

    /**
     * The first line of {@code text}, its other control characters escaped as Java writes them (an escape character
     * becomes backslash, {@code u001b}); an ellipsis marks lines left out.
     */
    static String of(String text) {
        StringBuilder line = new StringBuilder(Math.min(text.length(), 256));
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || c == '\r') {
                return text.substring(i).isBlank() ? line.toString() : line.append(" …").toString();
            }
            if (Character.isISOControl(c)) {
                line.append(String.format("\\u%04x", (int) c));
            } else {
                line.append(c);
            }
        }
        return line.toString();
    }
}
