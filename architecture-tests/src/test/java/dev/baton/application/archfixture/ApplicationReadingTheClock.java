package dev.baton.application.archfixture;

import java.time.Instant;

/** Broken on purpose: the core takes time from an injected Clock. */
public class ApplicationReadingTheClock {
    Instant now() {
        return Instant.now();
    }
}
