package dev.baton.bootstrap.wiring;

import com.google.inject.AbstractModule;

/** The application services behind the use cases. */
final class ServicesModule extends AbstractModule {
}
