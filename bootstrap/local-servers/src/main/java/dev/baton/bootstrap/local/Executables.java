package dev.baton.bootstrap.local;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/** Finds programs on the PATH. */
final class Executables {
    private Executables() {
    }

    static Optional<Path> onPath(String name) {
        String path = System.getenv().getOrDefault("PATH", "");
        return Arrays.stream(path.split(File.pathSeparator)).filter(dir -> !dir.isBlank())
                .map(dir -> Path.of(dir, name)).filter(Executables::isExecutable).findFirst();
    }

    static boolean isExecutable(Path file) {
        return Files.isRegularFile(file) && Files.isExecutable(file);
    }
}
