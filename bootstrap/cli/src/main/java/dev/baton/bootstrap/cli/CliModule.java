package dev.baton.bootstrap.cli;

import com.google.inject.AbstractModule;

/**
 * The CLI's world for Guice, which creates every command (see {@code BatonCommand.Factory}): the terminal the
 * commands read and print through. Each command opens the {@code Baton} its flags describe, by hand: the library
 * wires itself without a container.
 */
final class CliModule extends AbstractModule {
    private final Terminal terminal;

    CliModule(Terminal terminal) {
        this.terminal = terminal;
    }

    @Override
    protected void configure() {
        bind(Terminal.class).toInstance(terminal);
    }
}
