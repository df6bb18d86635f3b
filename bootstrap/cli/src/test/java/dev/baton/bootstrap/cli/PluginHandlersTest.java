package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.handler.JobHandlers;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.demo.NoopHandler;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Handlers in plugin jars, found by ServiceLoader through {@code --classpath} or the plugins folder. */
class PluginHandlersTest {
    @TempDir
    Path dir;

    @Test
    void aHandlerInAJarGivenWithClasspathIsFoundByName() throws IOException {
        Path jar = pluginJar("invoices");

        JobHandlers handlers = handlers(WorkerCommand.pluginLoader(Optional.empty(), List.of(jar)));

        assertThat(handlers.names()).contains("invoices", "shop-orders");
        assertThat(handlers.find("invoices").orElseThrow().getClass().getName()).isEqualTo("plugin.InvoicesHandler");
    }

    @Test
    void aHandlerInThePluginsFolderIsFoundByName() throws IOException {
        Path folder = Files.createDirectories(dir.resolve("plugins"));
        Files.move(pluginJar("receipts"), folder.resolve("receipts.jar"));

        assertThat(handlers(WorkerCommand.pluginLoader(Optional.of(folder), List.of())).names()).contains("receipts");
    }

    @Test
    void aMissingJarOrFolderIsAUsageError() {
        assertThatThrownBy(() -> WorkerCommand.pluginLoader(Optional.empty(), List.of(dir.resolve("nope.jar"))))
                .isInstanceOf(UsageException.class).hasMessageContaining("nope.jar");
        assertThatThrownBy(() -> WorkerCommand.pluginLoader(Optional.of(dir.resolve("none")), List.of()))
                .isInstanceOf(UsageException.class).hasMessageContaining("BATON_PLUGINS");
    }

    @Test
    void twoHandlersOfOneNameAreAConfigurationError() {
        try (Baton baton = Baton.builder().handler("noop", context -> Optional.empty())
                .handlers(List.of(new NoopHandler())).build()) {
            assertThatThrownBy(baton::handlers).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("two handlers are named 'noop'");
        }
    }

    private static JobHandlers handlers(ClassLoader loader) {
        try (Baton baton = Baton.builder().handlerClassLoader(loader).build()) {
            return baton.handlers();
        }
    }

    /** Compiles a NamedJobHandler called {@code name} that is on no classpath, and jars it with its service file. */
    private Path pluginJar(String name) throws IOException {
        String className = Character.toUpperCase(name.charAt(0)) + name.substring(1) + "Handler";
        Path source = Files.createDirectories(dir.resolve("src-" + name + "/plugin")).resolve(className + ".java");
        Files.writeString(source, "package plugin;\n"
                + "public final class " + className + " implements dev.baton.application.handler.NamedJobHandler {\n"
                + "  public String name() { return \"" + name + "\"; }\n"
                + "  public java.util.Optional<String> handle(dev.baton.application.handler.JobContext c) {\n"
                + "    return java.util.Optional.of(\"" + name + "\");\n  }\n}\n");
        Path classes = Files.createDirectories(dir.resolve("classes-" + name));
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        int status = compiler.run(null, null, null, "-d", classes.toString(), "-cp",
                System.getProperty("java.class.path"), source.toString());
        assertThat(status).isZero();
        Path jar = dir.resolve(name + ".jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            add(out, "plugin/" + className + ".class",
                    Files.readAllBytes(classes.resolve("plugin/" + className + ".class")));
            add(out, "META-INF/services/dev.baton.application.handler.NamedJobHandler",
                    ("plugin." + className + "\n").getBytes(StandardCharsets.UTF_8));
        }
        return jar;
    }

    private static void add(JarOutputStream jar, String name, byte[] bytes) throws IOException {
        jar.putNextEntry(new JarEntry(name));
        OutputStream out = jar;
        out.write(bytes);
        jar.closeEntry();
    }
}
