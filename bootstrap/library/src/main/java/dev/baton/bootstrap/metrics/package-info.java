/**
 * Metrics on Micrometer: the job and loop events as meters, per-queue and outbox gauges, and the registry they go to.
 * The optional Prometheus registry is named by one class, loaded only once the classpath has it.
 */
package dev.baton.bootstrap.metrics;
