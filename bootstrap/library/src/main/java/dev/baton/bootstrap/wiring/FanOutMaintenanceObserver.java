package dev.baton.bootstrap.wiring;

import dev.baton.application.port.out.DeliveryId;
import dev.baton.application.port.out.MaintenanceObserver;
import dev.baton.application.port.out.TrimOutcome;
import dev.baton.domain.QueueName;
import java.util.List;

/**
 * Hands every event of the worker's loops to several observers, in order: the metrics first, then those added with
 * the builder. Unlike {@link FanOutJobObserver} it does not spare the metrics-only case: these events are rare.
 */
final class FanOutMaintenanceObserver implements MaintenanceObserver {
    private final List<MaintenanceObserver> observers;

    FanOutMaintenanceObserver(List<MaintenanceObserver> observers) {
        this.observers = List.copyOf(observers);
    }

    @Override
    public void reclaimed(QueueName queue, int count) {
        observers.forEach(observer -> observer.reclaimed(queue, count));
    }

    @Override
    public void leaseLost(QueueName queue, DeliveryId id) {
        observers.forEach(observer -> observer.leaseLost(queue, id));
    }

    @Override
    public void vanished(QueueName queue, int count) {
        observers.forEach(observer -> observer.vanished(queue, count));
    }

    @Override
    public void trimmed(QueueName queue, TrimOutcome outcome) {
        observers.forEach(observer -> observer.trimmed(queue, outcome));
    }

    @Override
    public void outboxPublished(int count) {
        observers.forEach(observer -> observer.outboxPublished(count));
    }

    @Override
    public void outboxRepublished(int count) {
        observers.forEach(observer -> observer.outboxRepublished(count));
    }
}
