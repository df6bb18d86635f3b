/**
 * {@code baton bench}: runs jobs on Baton's own wiring and reports what it measured and whether each effect happened
 * once. It is a tool of the CLI, not part of the library: nothing outside the CLI depends on it.
 */
package dev.baton.bootstrap.bench;
