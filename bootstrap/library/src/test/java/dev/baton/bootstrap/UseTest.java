package dev.baton.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.port.in.InspectOutboxUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/** {@code Baton.use(Class)}: every use case of the application, and a clear error for any other type. */
class UseTest {
    private static final String USE_CASES = RunWorkerUseCase.class.getPackageName().replace('.', '/') + "/";

    @Test
    void everyUseCaseOfTheApplicationIsAnswered() throws Exception {
        List<Class<?>> useCases = useCases();
        assertThat(useCases).hasSizeGreaterThan(20);
        try (Baton baton = Baton.builder().adapters(new InMemoryAdapters(Clock.systemUTC()).ports()).build()) {
            for (Class<?> useCase : useCases) {
                if (useCase == InspectOutboxUseCase.class) {
                    // answered, but there is no outbox on adapters given whole
                    assertThatThrownBy(() -> baton.use(useCase)).isInstanceOf(ConfigException.class)
                            .hasMessageContaining("outbox");
                } else {
                    assertThat(baton.use(useCase)).as(useCase.getSimpleName()).isInstanceOf(useCase);
                }
            }
        }
    }

    @Test
    void anotherTypeIsRefusedNamingTheTypesAnswered() {
        try (Baton baton = Baton.builder().adapters(new InMemoryAdapters(Clock.systemUTC()).ports()).build()) {
            assertThatThrownBy(() -> baton.use(String.class)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("Baton.use(...) does not answer java.lang.String; it answers ")
                    .hasMessageContaining("InspectQueueUseCase").hasMessageContaining("RedisAdapter");
        }
    }

    /** The interfaces named {@code *UseCase} of the application's {@code port.in} package, from its classes. */
    private static List<Class<?>> useCases() throws IOException, URISyntaxException, ClassNotFoundException {
        Path location = Path.of(RunWorkerUseCase.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> names = new ArrayList<>();
        if (Files.isDirectory(location)) {
            try (Stream<Path> files = Files.list(location.resolve(USE_CASES))) {
                files.map(file -> USE_CASES + file.getFileName()).forEach(names::add);
            }
        } else {
            try (JarFile jar = new JarFile(location.toFile())) {
                jar.stream().map(ZipEntry::getName).filter(name -> name.startsWith(USE_CASES))
                        .forEach(names::add);
            }
        }
        List<Class<?>> useCases = new ArrayList<>();
        for (String name : names) {
            if (name.endsWith("UseCase.class")) {
                useCases.add(Class.forName(name.replace('/', '.').replace(".class", "")));
            }
        }
        return useCases;
    }
}
