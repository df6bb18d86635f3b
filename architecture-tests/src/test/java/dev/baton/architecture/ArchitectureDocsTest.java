package dev.baton.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Keeps docs/ARCHITECTURE.md and the README's class names in step with the classes of every module. */
class ArchitectureDocsTest {
    private static final Path ROOT = Path.of("..");
    private static final String TEST_SOURCES = Path.of("src", "test", "java").toString();
    /** A class name in backticks, alone or before a member: {@code `JobLeases`}, {@code `JobLeases.lease`}. */
    private static final Pattern CLASS_NAME = Pattern.compile("`([A-Z][a-z]\\w*)(?:[.#][\\w.()]*)?`");
    /** Named in the docs, not Baton's: the JDK's, Jdbi's, Spring's and Micrometer's own classes. */
    private static final Set<String> OUTSIDE_NAMES = Set.of("System", "Instant", "Handle", "DataSource",
            "JdbcTemplate", "MeterRegistry");
    private static final JavaClasses CLASSES = ProductionClasses.ALL;

    @Test
    void theArchitectureNamesEveryPort() throws IOException {
        assertThat(missingFromArchitecture(interfacesOf("dev.baton.application.port.out")))
                .as("ports of application.port.out that docs/ARCHITECTURE.md does not name")
                .isEmpty();
    }

    @Test
    void theArchitectureNamesEveryUseCase() throws IOException {
        assertThat(missingFromArchitecture(interfacesOf("dev.baton.application.port.in")))
                .as("use cases of application.port.in that docs/ARCHITECTURE.md does not name")
                .isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"docs/ARCHITECTURE.md", "README.md"})
    void everyClassNamedInBackticksExists(String doc) throws IOException {
        Set<String> known = CLASSES.stream().map(JavaClass::getSimpleName)
                .collect(Collectors.toCollection(HashSet::new));
        known.addAll(testSourceNames());
        Set<String> unknown = new TreeSet<>();
        Matcher names = CLASS_NAME.matcher(Files.readString(ROOT.resolve(doc)));
        while (names.find()) {
            String name = names.group(1);
            if (!known.contains(name) && !OUTSIDE_NAMES.contains(name)) {
                unknown.add(name);
            }
        }
        assertThat(unknown).as("class names in %s that no class of Baton's has", doc).isEmpty();
    }

    /** The test classes of every module, the contract suites and test helpers among them, by their file names. */
    private static Set<String> testSourceNames() throws IOException {
        Set<String> names = new HashSet<>();
        Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                String name = String.valueOf(dir.getFileName());
                boolean skipped = name.equals("target") || name.equals("node_modules") || name.equals(".git");
                return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                String name = file.getFileName().toString();
                if (name.endsWith(".java") && file.toString().contains(TEST_SOURCES)) {
                    names.add(name.substring(0, name.length() - ".java".length()));
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return names;
    }

    /**
     * The interfaces of {@code pkg} itself. Sealed ones are values (an outcome, a delivery), not ports; the package's
     * documentation compiles to an interface too.
     */
    private static List<String> interfacesOf(String pkg) {
        List<String> names = CLASSES.stream()
                .filter(type -> type.getPackageName().equals(pkg) && type.isTopLevelClass() && type.isInterface())
                .filter(type -> !type.reflect().isSealed() && !type.getSimpleName().equals("package-info"))
                .map(JavaClass::getSimpleName)
                .sorted()
                .toList();
        assertThat(names).as("interfaces imported from %s", pkg).isNotEmpty();
        return names;
    }

    private static List<String> missingFromArchitecture(List<String> names) throws IOException {
        String architecture = Files.readString(ROOT.resolve(Path.of("docs", "ARCHITECTURE.md")));
        return names.stream().filter(name -> !architecture.contains("`" + name + "`")).toList();
    }
}
