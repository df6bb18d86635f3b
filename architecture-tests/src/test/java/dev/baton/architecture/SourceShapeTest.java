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
 * What checkstyle cannot see: tests named by their outcome (the situation goes into a {@code @Nested} class), prose
 * in the docs kept to the width of the code, and the job-thread lists of the poms naming classes that exist.
 */
class SourceShapeTest {
    private static final Path ROOT = Path.of("..");
    private static final int LONGEST_TEST_NAME = 60;
    private static final int WIDEST_PROSE = 120;
    private static final Pattern TEST_ANNOTATION =
            Pattern.compile("^\\s*@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\\b.*");
    private static final Pattern METHOD = Pattern.compile("^\\s*(?:public |protected )?\\w[\\w<>]* (\\w+)\\(.*");
    private static final Pattern JOB_THREADS_LIST =
            Pattern.compile("<baton\\.job-threads\\.(?:tests|its)>([^<]*)</baton\\.job-threads\\.(?:tests|its)>");

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

    /**
     * CI's second pass ({@code -Pjob-threads}) runs the classes a module's pom names: a renamed class would silently
     * drop out of it, so every plain name must be a test class of that module (patterns such as {@code **}/*IT pass).
     */
    @Test
    void jobThreadListsNameTestClassesThatExist() {
        List<String> missing = new ArrayList<>();
        for (Path pom : files("", "/pom.xml")) {
            Matcher list = JOB_THREADS_LIST.matcher(String.join("\n", lines(pom)));
            while (list.find()) {
                for (String name : list.group(1).split(",")) {
                    String trimmed = name.trim();
                    if (trimmed.matches("\\w+") && !trimmed.equals("none") && !isTestOf(pom.getParent(), trimmed)) {
                        missing.add(ROOT.relativize(pom) + ": " + trimmed);
                    }
                }
            }
        }
        assertThat(missing).as("classes named in job-thread lists that are not test classes").isEmpty();
    }

    private static boolean isTestOf(Path module, String simpleName) {
        try (Stream<Path> sources = Files.walk(module.resolve("src/test/java"))) {
            return sources.anyMatch(path -> path.getFileName().toString().equals(simpleName + ".java"));
        } catch (IOException e) {
            return false; // a module without tests names none
        }
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
                    .filter(path -> under.isEmpty() || path.toString().replace('\\', '/').contains("/" + under + "/"))
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
