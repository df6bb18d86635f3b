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

    /** Cuts long text (error messages, for example) so that one bad job cannot blow up a stream entry. */
    static String abbreviate(String value, int max) {
        if (value == null || value.length() <= max) {
            return value;
        }
        return value.substring(0, max - 1) + "…";
    }
}
