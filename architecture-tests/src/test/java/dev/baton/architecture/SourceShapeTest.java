package dev.baton.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What checkstyle cannot see: tests named by their outcome (the situation goes into a {@code @Nested} class), and
 * prose in the docs kept to the width of the code.
 */
class SourceShapeTest {
    private static final Path ROOT = Path.of("..");
    private static final int LONGEST_TEST_NAME = 60;
    private static final int WIDEST_PROSE = 120;
    private static final Pattern TEST_ANNOTATION =
            Pattern.compile("^\\s*@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\\b.*");
    private static final Pattern METHOD = Pattern.compile("^\\s*(?:public |protected )?\\w[\\w<>]* (\\w+)\\(.*");

    @Test
    void testNamesFitInSixtyCharacters() {
        List<String> tooLong = new ArrayList<>();
        for (Path source : files("src/test/java", ".java")) {
            boolean annotated = false;
            for (String line : lines(source)) {
                if (TEST_ANNOTATION.matcher(line).matches()) {
                    annotated = true;
                    continue;
                }
                Matcher method = METHOD.matcher(line);
                if (annotated && method.matches()) {
                    annotated = false;
                    if (method.group(1).length() > LONGEST_TEST_NAME) {
                        tooLong.add(ROOT.relativize(source) + ": " + method.group(1));
                    }
                }
            }
        }
        assertThat(tooLong).as("tests named longer than %d characters", LONGEST_TEST_NAME).isEmpty();
    }

    @Test
    void docsProseFitsTheCodeWidth() {
        List<String> tooWide = new ArrayList<>();
        for (Path doc : docs()) {
            boolean inCode = false;
            List<String> lines = lines(doc);
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("```")) {
                    inCode = !inCode;
                } else if (!inCode && isProse(line) && line.length() > WIDEST_PROSE) {
                    tooWide.add(ROOT.relativize(doc) + ":" + (i + 1));
                }
            }
        }
        assertThat(tooWide).as("prose lines wider than %d characters", WIDEST_PROSE).isEmpty();
    }

    /** Tables, headings, HTML and lines that are one long link cannot wrap. */
    private static boolean isProse(String line) {
        String trimmed = line.trim();
        return !trimmed.startsWith("|") && !trimmed.startsWith("#") && !trimmed.startsWith("<")
                && !trimmed.matches("\\S*https?://\\S+");
    }

    private static List<Path> docs() {
        List<Path> docs = new ArrayList<>(List.of(ROOT.resolve("README.md")));
        try (Stream<Path> files = Files.list(ROOT.resolve("docs"))) {
            files.filter(path -> path.toString().endsWith(".md")).sorted().forEach(docs::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return docs;
    }

    private static List<Path> files(String under, String suffix) {
        try (Stream<Path> all = Files.walk(ROOT)) {
            return all.filter(path -> path.toString().endsWith(suffix))
                    .filter(path -> path.toString().replace('\\', '/').contains("/" + under + "/"))
                    .filter(path -> !path.toString().contains("/target/"))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
