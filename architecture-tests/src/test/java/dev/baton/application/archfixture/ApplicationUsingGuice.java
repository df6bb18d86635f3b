package dev.baton.application.archfixture;

import com.google.inject.Injector;

/** Broken on purpose: Guice belongs to bootstrap. */
public class ApplicationUsingGuice {
    Injector injector;
}
