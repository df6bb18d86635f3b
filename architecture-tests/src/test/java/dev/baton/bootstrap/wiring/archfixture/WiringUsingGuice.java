package dev.baton.bootstrap.wiring.archfixture;

import com.google.inject.Injector;

/** Broken on purpose: the library wires itself by hand; Guice belongs to the CLI. */
public class WiringUsingGuice {
    Injector injector;
}
