package dev.baton.application.port.out;

/** Every port of the stream transport at once, for the adapters and tests that still hand one object around. */
public interface StreamTransport extends JobPublisher, JobLeases, QueueMaintenance, QueueAdministration {
}
