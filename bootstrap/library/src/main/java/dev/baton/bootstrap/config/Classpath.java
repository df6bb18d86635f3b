package dev.baton.bootstrap.config;

/**
 * What the application put on the classpath. Baton's optional parts (the OpenTelemetry API, the Prometheus registry,
 * the dashboard's chart library) are used only when there: asking loads and initialises nothing.
 */
public final class Classpath {
    private Classpath() {
    }

    /** Whether {@code className} can be loaded by Baton's own class loader. */
    public static boolean has(String className) {
        try {
            Class.forName(className, false, Classpath.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }
}
