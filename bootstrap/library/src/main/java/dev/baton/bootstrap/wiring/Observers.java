package dev.baton.bootstrap.wiring;

import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.bootstrap.metrics.Meters;
import dev.baton.bootstrap.metrics.MicrometerWorkerObserver;
import java.util.ArrayList;
import java.util.List;

/**
 * The meters and the observers of jobs and of the worker's loops: the metrics first, then the observers the builder
 * added. An added observer that is a {@link MaintenanceObserver} too hears the loops as well.
 */
final class Observers {
    private final Lazy<Meters> meters;
    private final Lazy<MicrometerWorkerObserver> metrics;
    private final Lazy<JobObserver> jobs;
    private final Lazy<MaintenanceObserver> maintenance;

    Observers(Lazy<Meters> meters, List<JobObserver> added) {
        this.meters = meters;
        this.metrics = new Lazy<>(() -> new MicrometerWorkerObserver(meters.get().registry()));
        this.jobs = new Lazy<>(() -> FanOutJobObserver.of(metricsFirst(metrics.get(), added)));
        List<MaintenanceObserver> addedMaintenance = added.stream()
                .filter(MaintenanceObserver.class::isInstance).map(MaintenanceObserver.class::cast).toList();
        this.maintenance = new Lazy<>(() ->
                new FanOutMaintenanceObserver(metricsFirst(metrics.get(), addedMaintenance)));
    }

    private static <T> List<T> metricsFirst(T metrics, List<? extends T> added) {
        List<T> all = new ArrayList<>(List.of(metrics));
        all.addAll(added);
        return all;
    }

    Meters meters() {
        return meters.get();
    }

    JobObserver jobs() {
        return jobs.get();
    }

    MaintenanceObserver maintenance() {
        return maintenance.get();
    }
}
