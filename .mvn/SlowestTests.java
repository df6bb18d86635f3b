import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Prints the slowest test classes of a build and each module's test time, read from the surefire and failsafe
 * reports ({@code target/*-reports/TEST-*.xml}) under the reactor's root. Only reports written since the build
 * started count, so a module left out of this build does not show with an old run. {@code @Nested} classes count
 * with their outer class. Run by the last module of the reactor (architecture-tests) at {@code verify}:
 * {@code java .mvn/SlowestTests.java ROOT BUILD_START [COUNT]}.
 */
public final class SlowestTests {
    /** A report's suite: its outer class, whether it is a nested one, its time. */
    private record TestClass(String module, String name, boolean nested, double seconds) {
        /**
         * A class and its {@code @Nested} classes as one: the outer suite's time spans its nested ones' in some
         * reports and not in others, so the larger of the outer time and the nested times' sum.
         */
        static TestClass merge(List<TestClass> suites) {
            double outer = suites.stream().filter(c -> !c.nested()).mapToDouble(TestClass::seconds).sum();
            double nested = suites.stream().filter(TestClass::nested).mapToDouble(TestClass::seconds).sum();
            TestClass first = suites.get(0);
            return new TestClass(first.module(), first.name(), false, Math.max(outer, nested));
        }
    }

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args[0]);
        FileTime since = FileTime.from(Instant.parse(args[1]));
        int count = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        List<TestClass> classes;
        // modules sit one or two levels down: root/module/target/surefire-reports/TEST-x.xml
        try (Stream<Path> files = Files.find(root, 5, (file, attributes) -> isReport(file))) {
            classes = files.filter(file -> modifiedSince(file, since))
                    .map(file -> read(root, file))
                    .collect(Collectors.groupingBy(c -> c.module() + " " + c.name())).values().stream()
                    .map(TestClass::merge)
                    .sorted(Comparator.comparingDouble(TestClass::seconds).reversed()).toList();
        }
        if (classes.isEmpty()) {
            return;
        }
        double total = classes.stream().mapToDouble(TestClass::seconds).sum();
        System.out.printf(Locale.ROOT, "[tests] the %d slowest of %d test classes (%.0f s of test time in all):%n",
                Math.min(count, classes.size()), classes.size(), total);
        classes.stream().limit(count).forEach(c -> System.out.printf(Locale.ROOT, "[tests] %8.1f s  %-30s %s%n",
                c.seconds(), c.module(), c.name()));
        Map<String, Double> modules = new TreeMap<>(classes.stream().collect(
                Collectors.groupingBy(TestClass::module, Collectors.summingDouble(TestClass::seconds))));
        System.out.println("[tests] test time per module (forks run side by side, so it exceeds the wall time): "
                + modules.entrySet().stream().map(m -> String.format(Locale.ROOT, "%s %.0f s", m.getKey(),
                        m.getValue())).collect(Collectors.joining(", ")));
    }

    private static boolean isReport(Path file) {
        String name = file.getFileName().toString();
        String dir = file.getParent() == null ? "" : file.getParent().getFileName().toString();
        return name.startsWith("TEST-") && name.endsWith(".xml")
                && (dir.equals("surefire-reports") || dir.equals("failsafe-reports"));
    }

    private static boolean modifiedSince(Path file, FileTime since) {
        try {
            return Files.getLastModifiedTime(file).compareTo(since) >= 0;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The report's suite: its class (a nested one counted as its outer class) and time. */
    private static TestClass read(Path root, Path report) {
        Path target = report.getParent().getParent();
        String module = root.relativize(target.getParent()).toString();
        try (InputStream in = Files.newInputStream(report)) {
            XMLStreamReader xml = XMLInputFactory.newInstance().createXMLStreamReader(in);
            while (!xml.isStartElement()) {
                xml.next();
            }
            String name = xml.getAttributeValue(null, "name");
            // surefire groups thousands with a comma in some versions
            double seconds = Double.parseDouble(xml.getAttributeValue(null, "time").replace(",", ""));
            int nested = name.indexOf('$');
            return new TestClass(module, nested < 0 ? name : name.substring(0, nested), nested >= 0, seconds);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (XMLStreamException e) {
            throw new IllegalStateException(report + " is not a test report", e);
        }
    }
}
