/**
 * The library wires itself by hand: one {@link dev.baton.bootstrap.wiring.Components} per {@code Baton}, whose parts
 * are made on first use, kept, and closed in reverse order of opening. No dependency-injection container, no
 * reflection, and a lookup by class only where {@code Baton.use(Class)} must answer one.
 */
package dev.baton.bootstrap.wiring;
