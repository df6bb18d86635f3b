package dev.baton.application.service.worker.archfixture;

import dev.baton.application.port.out.StreamTransport;

/** Broken on purpose: the worker reaches the transport through JobLeases and QueueMaintenance only. */
public class WorkerUsingTheStreamTransport {
    StreamTransport transport;
}
