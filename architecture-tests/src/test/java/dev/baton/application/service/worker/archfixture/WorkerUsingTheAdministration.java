package dev.baton.application.service.worker.archfixture;

import dev.baton.application.port.out.QueueAdministration;

/** Broken on purpose: the worker reaches the transport through JobLeases and QueueMaintenance only. */
public class WorkerUsingTheAdministration {
    QueueAdministration administration;
}
