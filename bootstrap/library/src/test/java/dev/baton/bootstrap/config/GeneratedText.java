package dev.baton.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Text generated from the declarations and kept in a checked-in file: a test compares them, and with
 * {@code -Dbaton.regenerate=true} rewrites the file instead. In a Markdown file the generated part sits between two
 * marker comments.
 */
public final class GeneratedText {
    /** The system property that makes the tests rewrite the files rather than compare them. */
    public static final String REGENERATE = "baton.regenerate";

    private GeneratedText() {
    }

    /** Compares (or rewrites) the whole {@code file}. */
    public static void check(Path file, String generated) throws IOException {
        if (Boolean.getBoolean(REGENERATE)) {
            Files.writeString(file, generated);
        }
        assertThat(Files.readString(file)).as(file + " disagrees with the declarations; run the test with -D"
                + REGENERATE + "=true to rewrite it").isEqualTo(generated);
    }

    /** Compares (or rewrites) the part of {@code file} between the markers of {@code name}. */
    public static void checkBetweenMarkers(Path file, String name, String generated) throws IOException {
        String start = "<!-- generated: " + name + " (from Setting.all(); -D" + REGENERATE + "=true rewrites it) -->\n";
        String end = "<!-- end of generated: " + name + " -->";
        String text = Files.readString(file);
        int from = text.indexOf(start);
        int to = text.indexOf(end);
        assertThat(from).as(file + " has no marker " + start).isNotNegative();
        assertThat(to).as(file + " has no marker " + end).isGreaterThan(from);
        check(file, text.substring(0, from + start.length()) + generated + text.substring(to));
    }
}
