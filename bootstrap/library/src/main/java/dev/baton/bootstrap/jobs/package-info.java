/**
 * Typed jobs: a {@code JobType} pairs a stable wire name with the record of its arguments, and a {@code
 * TypedJobHandler} gets that record bound from the payload. JSON goes through {@code bootstrap.json}; nothing here
 * names Jackson.
 */
package dev.baton.bootstrap.jobs;
