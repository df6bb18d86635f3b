package dev.baton.domain;

/** Small text checks shared by the value objects. */
final class Text {
    private Text() {
    }

    /** True when every char is printable: no control characters (which would corrupt logs and terminals). */
    static boolean printable(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isISOControl(c) || Character.getType(c) == Character.UNASSIGNED) {
                return false;
            }
        }
        return true;
    }

    /** The punctuation RFC 7230 allows in a token ({@code tchar}), besides ASCII letters and digits. */
    private static final String TOKEN_PUNCTUATION = "!#$%&'*+-.^_`|~";

    /** True when {@code value} is an RFC 7230 token: ASCII letters, digits and {@value #TOKEN_PUNCTUATION}. */
    static boolean token(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean alphanumeric = c < 0x80 && Character.isLetterOrDigit(c);
            if (!alphanumeric && TOKEN_PUNCTUATION.indexOf(c) < 0) {
                return false;
            }
        }
        return !value.isEmpty();
    }

    /** The text as it may be shown in a message: cut, each control character as a backslash, u and 4 hex digits. */
    static String shown(String value) {
        StringBuilder shown = new StringBuilder();
        abbreviate(value, 120).chars().forEach(c -> shown.append(Character.isISOControl(c)
                ? String.format("\\u%04X", c) : Character.toString(c)));
        return shown.toString();
    }

    /** Cuts long text (error messages, for example) so that one bad job cannot blow up a stream entry. */
    static String abbreviate(String value, int max) {
        if (value == null || value.length() <= max) {
            return value;
        }
        return value.substring(0, max - 1) + "…";
    }
}
