package dev.baton.domain;

import java.util.BitSet;
import java.util.List;
import java.util.Locale;

/**
 * One field of a cron expression, parsed into the set of values it allows: {@code *}, {@code 5}, {@code 1-5},
 * {@code *}{@code /15}, {@code 10-50/10}, {@code 3/20} (3 to the end in steps of 20) and lists of these
 * ({@code 1,15,30}); month and weekday fields take names too ({@code JAN}, {@code MON-FRI}).
 *
 * @param restricted false when the field starts with {@code *}: day-of-month and day-of-week then leave the choice to
 *                   the other one (cron's OR rule applies only when both are restricted)
 */
record CronField(String name, BitSet allowed, boolean restricted) {

    /** The fields' ranges and names, in the expression's order. */
    enum Kind {
        MINUTE("minute", 0, 59, List.of()),
        HOUR("hour", 0, 23, List.of()),
        DAY_OF_MONTH("day-of-month", 1, 31, List.of()),
        MONTH("month", 1, 12, List.of("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV",
                "DEC")),
        // 0 and 7 are both Sunday; names start at 0
        DAY_OF_WEEK("day-of-week", 0, 7, List.of("SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"));

        private final String label;
        private final int min;
        private final int max;
        private final List<String> names;

        Kind(String label, int min, int max, List<String> names) {
            this.label = label;
            this.min = min;
            this.max = max;
            this.names = names;
        }
    }

    CronField {
        allowed = (BitSet) allowed.clone();
    }

    boolean allows(int value) {
        return allowed.get(value);
    }

    /** The smallest allowed value at or above {@code from}, or -1. */
    int firstFrom(int from) {
        return allowed.nextSetBit(from);
    }

    static CronField parse(Kind kind, String text) {
        BitSet allowed = new BitSet(kind.max + 1);
        for (String item : text.split(",", -1)) {
            parseItem(kind, item, allowed);
        }
        if (kind == Kind.DAY_OF_WEEK && allowed.get(7)) {
            allowed.set(0); // Sunday, either way it is written
            allowed.clear(7);
        }
        return new CronField(kind.label, allowed, !text.startsWith("*"));
    }

    private static void parseItem(Kind kind, String item, BitSet allowed) {
        String range = item;
        int step = 1;
        int slash = item.indexOf('/');
        if (slash >= 0) {
            range = item.substring(0, slash);
            step = number(kind, item.substring(slash + 1), item);
            if (step < 1) {
                throw bad(kind, item, "a step must be at least 1");
            }
        }
        int from;
        int to;
        if (range.equals("*")) {
            from = kind.min;
            to = kind == Kind.DAY_OF_WEEK ? 6 : kind.max;
        } else {
            int dash = range.indexOf('-');
            from = value(kind, dash < 0 ? range : range.substring(0, dash), item);
            to = dash >= 0 ? value(kind, range.substring(dash + 1), item) : slash >= 0 ? kind.max : from;
        }
        if (from > to) {
            throw bad(kind, item, "a range must go upwards, " + from + " > " + to);
        }
        for (int value = from; value <= to; value += step) {
            allowed.set(value);
        }
    }

    private static int value(Kind kind, String text, String item) {
        int index = kind.names.indexOf(text.toUpperCase(Locale.ROOT));
        int value = index >= 0 ? index + (kind == Kind.MONTH ? 1 : 0) : number(kind, text, item);
        if (value < kind.min || value > kind.max) {
            throw bad(kind, item, "values are " + kind.min + ".." + kind.max);
        }
        return value;
    }

    private static int number(Kind kind, String text, String item) {
        if (text.isEmpty() || text.length() > 4 || !text.chars().allMatch(Character::isDigit)) {
            throw bad(kind, item, "'" + text + "' is not a number" + (kind.names.isEmpty() ? "" : " or a name"));
        }
        return Integer.parseInt(text);
    }

    private static InvalidValueException bad(Kind kind, String item, String why) {
        return new InvalidValueException("cron " + kind.label + " field '" + item + "': " + why);
    }
}
