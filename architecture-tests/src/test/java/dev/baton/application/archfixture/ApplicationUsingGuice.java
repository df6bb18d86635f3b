package dev.baton.application.archfixture;

import com.google.inject.Injector;

/** Broken on purpose: Guice belongs to the CLI. */
public class ApplicationUsingGuice {
    Injector injector;
}
