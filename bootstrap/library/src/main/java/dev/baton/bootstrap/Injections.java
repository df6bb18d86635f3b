package dev.baton.bootstrap;

import com.google.inject.Injector;
import com.google.inject.Key;
import com.google.inject.ProvisionException;

/** Guice wraps what a provider throws (an unreachable server, a bad handler name): callers get the cause. */
final class Injections {
    private Injections() {
    }

    static <T> T get(Injector injector, Key<T> key) {
        try {
            return injector.getInstance(key);
        } catch (ProvisionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
