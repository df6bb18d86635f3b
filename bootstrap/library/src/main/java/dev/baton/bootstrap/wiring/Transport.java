package dev.baton.bootstrap.wiring;

import dev.baton.application.port.out.DelayedJobActions;
import dev.baton.application.port.out.JobLeases;
import dev.baton.application.port.out.JobPublisher;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueMaintenance;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.application.port.out.ScheduleFires;
import java.util.Objects;

/** The stream transport's ports, grouped by who uses them; one adapter (Redis, or an in-memory one) is behind all. */
public record Transport(JobPublisher publisher, JobLeases leases, QueueMaintenance maintenance,
                        QueueAdministration administration, DelayedJobActions delayedJobs, QueueOverview overview,
                        ScheduleFires scheduleFires) {
    public Transport {
        Objects.requireNonNull(publisher, "publisher");
        Objects.requireNonNull(leases, "leases");
        Objects.requireNonNull(maintenance, "maintenance");
        Objects.requireNonNull(administration, "administration");
        Objects.requireNonNull(delayedJobs, "delayed jobs");
        Objects.requireNonNull(overview, "overview");
        Objects.requireNonNull(scheduleFires, "schedule fires");
    }
}
