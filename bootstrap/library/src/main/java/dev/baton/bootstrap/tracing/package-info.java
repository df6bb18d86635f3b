/**
 * Tracing on the OpenTelemetry API, behind the {@code JobTracing} port: a span per enqueued job and per attempt, with
 * the trace context carried in the job's headers. The API is optional, so only this package names it, and {@code
 * BatonBuilder} as the type that {@code openTelemetry(...)} takes.
 */
package dev.baton.bootstrap.tracing;
