package dev.baton.bootstrap.testing;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * This test JVM's classpath as a class loader of its own, minus the jars whose file names start with given prefixes:
 * a host application that left those dependencies out. Nothing is shared with the test's own loader but the JDK, so
 * code run in it sees only what a host without those jars would.
 */
public final class HostClasspath {
    private HostClasspath() {
    }

    /** A loader over the classpath without the jars named {@code hiddenJars...} (file name prefixes). */
    public static URLClassLoader without(String... hiddenJars) {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            String name = path.getFileName().toString();
            if (Arrays.stream(hiddenJars).noneMatch(name::startsWith)) {
                urls.add(url(path));
            }
        }
        return new URLClassLoader("host-without-" + String.join("+", hiddenJars), urls.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader());
    }

    private static URL url(Path path) {
        try {
            return path.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException("classpath entry " + path, e);
        }
    }
}
