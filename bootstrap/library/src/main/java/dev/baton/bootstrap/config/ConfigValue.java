package dev.baton.bootstrap.config;

import java.util.Objects;

/** One raw setting value and where it came from (for error messages). */
record ConfigValue(String text, Source source) {
    ConfigValue {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(source, "source");
    }

    /** Where a value came from, lowest precedence first. */
    enum Source {
        DEFAULT("the default"),
        ENVIRONMENT("the environment"),
        FILE("the properties file"),
        FLAG("the command line");

        final String label;

        Source(String label) {
            this.label = label;
        }
    }
}
