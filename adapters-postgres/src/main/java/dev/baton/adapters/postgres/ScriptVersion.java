package dev.baton.adapters.postgres;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The version of a migration script, {@code 1}, {@code 2}, {@code 10} or {@code 1.1} ({@code V1_1__…} in a file name):
 * dot-separated numbers compared part by part as numbers, trailing zeros ignored ({@code 1.0} is {@code 1}). Written
 * to the history as in the file name, underscores as dots, as Flyway wrote it.
 */
final class ScriptVersion implements Comparable<ScriptVersion> {
    private static final Pattern FORM = Pattern.compile("\\d+(\\.\\d+)*");

    private final String text;
    private final List<BigInteger> parts;

    private ScriptVersion(String text, List<BigInteger> parts) {
        this.text = text;
        this.parts = parts;
    }

    /** @throws IllegalArgumentException when {@code version} is not numbers separated by dots or underscores */
    static ScriptVersion parse(String version) {
        String text = version.replace('_', '.');
        if (!FORM.matcher(text).matches()) {
            throw new IllegalArgumentException("'" + version + "' is not a version like 1, 2, 10 or 1.1");
        }
        List<BigInteger> parts = Arrays.stream(text.split("\\.")).map(BigInteger::new).toList();
        int length = parts.size();
        while (length > 1 && parts.get(length - 1).signum() == 0) {
            length--;
        }
        return new ScriptVersion(text, parts.subList(0, length));
    }

    @Override
    public int compareTo(ScriptVersion other) {
        for (int i = 0; i < Math.max(parts.size(), other.parts.size()); i++) {
            int order = part(i).compareTo(other.part(i));
            if (order != 0) {
                return order;
            }
        }
        return 0;
    }

    private BigInteger part(int index) {
        return index < parts.size() ? parts.get(index) : BigInteger.ZERO;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ScriptVersion version && parts.equals(version.parts);
    }

    @Override
    public int hashCode() {
        return parts.hashCode();
    }

    /** The version as the history records it: {@code 1.1} for {@code V1_1__…}. */
    @Override
    public String toString() {
        return text;
    }
}
