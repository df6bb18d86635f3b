/**
 * The services behind the use cases: final classes that take their ports, a {@code Clock} and other collaborators in
 * their constructors, with no framework annotations. They depend on the ports, the handler SPI, the domain and SLF4J
 * only. They read time from the given clock, never from the wall clock.
 */
package dev.baton.application.service;
