package dev.baton.adapters.postgres;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Reads the scripts of a migration location, sub-directories included: {@code filesystem:<directory>}, or
 * {@code classpath:<directory>} (a location without a prefix is a class path one) from every directory of that name
 * on the class path, in the file system or in a jar. A jar shows a directory only when it holds an entry for it, as
 * jars built by Maven do. Every {@code .sql} file must be a versioned script; other files are left alone.
 */
final class ScriptFinder {
    private static final String CLASSPATH = "classpath:";
    private static final String FILESYSTEM = "filesystem:";

    private final ClassLoader classLoader;

    ScriptFinder(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    /**
     * The location's scripts in version order.
     *
     * @throws MigrationException when the location is missing, or holds a misnamed script or two of one version
     */
    List<MigrationScript> scripts(String location) {
        List<ScriptFile> files = new ArrayList<>();
        try {
            if (location.startsWith(FILESYSTEM)) {
                readFileSystem(location, files);
            } else {
                readClassPath(location, files);
            }
        } catch (IOException | URISyntaxException e) {
            throw new MigrationException("could not read location " + location + ": " + e, e);
        }
        List<MigrationScript> scripts = new ArrayList<>();
        for (ScriptFile file : files) {
            try {
                scripts.add(MigrationScript.of(file.path(), file.text()));
            } catch (MigrationException e) {
                throw new MigrationException("location " + location + ": " + e.getMessage(), e);
            }
        }
        scripts.sort(Comparator.comparing(MigrationScript::version).thenComparing(MigrationScript::path));
        for (int i = 1; i < scripts.size(); i++) {
            if (scripts.get(i).version().equals(scripts.get(i - 1).version())) {
                throw new MigrationException("location " + location + " holds two scripts of version "
                        + scripts.get(i).version() + ": " + scripts.get(i - 1).path() + " and "
                        + scripts.get(i).path());
            }
        }
        return scripts;
    }

    private static void readFileSystem(String location, List<ScriptFile> files) throws IOException {
        Path directory = Path.of(location.substring(FILESYSTEM.length()));
        if (!Files.isDirectory(directory)) {
            throw new MigrationException("location " + location + " does not exist: " + directory.toAbsolutePath()
                    + " is not a directory");
        }
        readDirectory(directory, files);
    }

    private void readClassPath(String location, List<ScriptFile> files) throws IOException,
            URISyntaxException {
        String directory = location.replaceFirst("^" + CLASSPATH, "").replaceAll("^/+|/+$", "");
        List<URL> roots = Collections.list(classLoader.getResources(directory));
        if (roots.isEmpty()) {
            throw new MigrationException("location " + location + " does not exist: no directory " + directory
                    + " on the class path");
        }
        for (URL root : roots) {
            switch (root.getProtocol()) {
                case "file" -> readDirectory(Path.of(root.toURI()), files);
                case "jar" -> readJar(root, files);
                default -> throw new MigrationException("location " + location + " is at " + root
                        + ", which Baton cannot list (a directory or a jar can be listed)");
            }
        }
    }

    private static void readDirectory(Path directory, List<ScriptFile> files) throws IOException {
        try (Stream<Path> walk = Files.walk(directory)) {
            for (Path file : (Iterable<Path>) walk::iterator) {
                if (Files.isRegularFile(file) && MigrationScript.isScript(file.getFileName().toString())) {
                    String path = directory.relativize(file).toString().replace(file.getFileSystem()
                            .getSeparator(), "/");
                    files.add(new ScriptFile(path, Files.readString(file, StandardCharsets.UTF_8)));
                }
            }
        }
    }

    private static void readJar(URL root, List<ScriptFile> files) throws IOException {
        JarURLConnection connection = (JarURLConnection) root.openConnection();
        connection.setUseCaches(false); // a jar file of its own, which closing does not close for the class loader
        String directory = connection.getEntryName();
        String prefix = directory.endsWith("/") ? directory : directory + "/";
        try (JarFile jar = connection.getJarFile()) {
            for (Enumeration<JarEntry> entries = jar.entries(); entries.hasMoreElements(); ) {
                JarEntry entry = entries.nextElement();
                String name = entry.getName();
                if (!entry.isDirectory() && name.startsWith(prefix) && MigrationScript.isScript(name)) {
                    try (InputStream content = jar.getInputStream(entry)) {
                        files.add(new ScriptFile(name.substring(prefix.length()),
                                new String(content.readAllBytes(), StandardCharsets.UTF_8)));
                    }
                }
            }
        }
    }

    /** A {@code .sql} file of a location, by its path inside it. */
    private record ScriptFile(String path, String text) {
    }
}
