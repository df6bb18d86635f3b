package dev.baton.bootstrap.cli.archfixture;

import com.google.common.collect.ImmutableList;

/** Broken on purpose: Guava comes with the CLI's Guice, and still no Baton class names it. */
public class CliUsingGuava {
    ImmutableList<String> names;
}
