package dev.baton.bootstrap.archfixture;

import jakarta.inject.Inject;

/** Broken on purpose: injection annotations in the library would put a container's API on a host's classpath. */
public class LibraryUsingInjectAnnotations {
    @Inject
    public LibraryUsingInjectAnnotations() {
    }
}
