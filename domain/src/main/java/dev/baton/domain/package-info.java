/**
 * The domain: value objects as records that check their invariants in compact constructors, and pure decisions such as
 * {@code RetryPolicy.decide}. It depends on the JDK only. It does no I/O and never reads the clock: time and randomness
 * come in as arguments.
 */
package dev.baton.domain;
