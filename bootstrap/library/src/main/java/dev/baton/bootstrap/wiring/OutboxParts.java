package dev.baton.bootstrap.wiring;

import dev.baton.adapters.postgres.PostgresAdapter;
import dev.baton.application.port.out.JobObserver;
import dev.baton.application.port.out.JobTracing;
import dev.baton.application.service.EnqueueService;
import dev.baton.application.service.InspectOutboxService;
import dev.baton.application.service.OutboxRelay;
import dev.baton.bootstrap.metrics.OutboxGauges;
import dev.baton.domain.PayloadLimit;
import java.time.Clock;
import java.util.function.Supplier;

/**
 * The outbox in the ledger's schema: the enqueue that writes it in transactions of its own
 * ({@code BATON_ENQUEUE_THROUGH_OUTBOX}), its relay to Redis, its inspection and its gauges.
 */
final class OutboxParts {
    private final PostgresParts postgres;
    private final Lazy<EnqueueService> enqueue;
    private final Lazy<OutboxRelay> relay;
    private final Lazy<InspectOutboxService> inspect;
    private final Lazy<OutboxGauges> gauges;

    OutboxParts(PostgresParts postgres, RedisParts redis, Clock clock, Closer closer, Observers observers,
                Supplier<JobTracing> tracing) {
        this.postgres = postgres;
        // its jobs count as enqueued when the relay publishes them, as every outbox row's do, not here
        this.enqueue = new Lazy<>(() -> new EnqueueService(postgres.adapter().outboxPublisher(), clock,
                PayloadLimit.DEFAULT, JobObserver.NONE, tracing.get()));
        // one per instance, started on first use and stopped with the instance, however many workers it runs
        this.relay = new Lazy<>(() -> closer.register(new OutboxRelay(postgres.adapter().jobOutbox(),
                redis.transport().publisher(), postgres.ledger().outcomes(), redis.adapter().memory(),
                PayloadLimit.DEFAULT, clock, OutboxRelay.Settings.DEFAULTS, observers.maintenance(), observers.jobs()))
                .start());
        this.inspect = new Lazy<>(() -> new InspectOutboxService(postgres.adapter().jobOutbox(), clock));
        this.gauges = new Lazy<>(() -> new OutboxGauges(inspect.get(), observers.meters().registry(),
                Components.GAUGE_REFRESH));
    }

    /** Enqueues inside the application's own transactions. */
    PostgresAdapter.Outbox transactional() {
        return postgres.adapter().outbox();
    }

    EnqueueService enqueue() {
        return enqueue.get();
    }

    /** Started on first use. */
    OutboxRelay relay() {
        return relay.get();
    }

    InspectOutboxService inspect() {
        return inspect.get();
    }

    OutboxGauges gauges() {
        return gauges.get();
    }
}
