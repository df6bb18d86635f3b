package dev.baton.bootstrap;

import com.google.inject.Injector;
import com.google.inject.Key;
import dev.baton.application.port.in.CountCompletionsUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.ListDelayedJobsUseCase;
import dev.baton.application.port.in.ListPartitionsUseCase;
import dev.baton.application.port.in.ListQueuesUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.PauseQueueUseCase;
import dev.baton.application.port.in.PurgeDeadLettersUseCase;
import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.in.ResumeQueueUseCase;
import dev.baton.application.port.in.SearchOutcomesUseCase;
import dev.baton.bootstrap.admin.Dashboard;
import dev.baton.bootstrap.admin.DeadLetterEndpoints;
import dev.baton.bootstrap.admin.HealthEndpoints;
import dev.baton.bootstrap.admin.JobEndpoints;
import dev.baton.bootstrap.admin.PauseEndpoint;
import dev.baton.bootstrap.admin.QueueEndpoints;
import dev.baton.bootstrap.admin.Routes;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.metrics.KnownQueues;
import dev.baton.bootstrap.wiring.Closer;
import dev.baton.bootstrap.wiring.HealthCheck;
import dev.baton.domain.OutboxBacklog;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/** The admin server's endpoint groups, from one Baton instance's use cases. */
final class AdminEndpoints {
    private AdminEndpoints() {
    }

    /**
     * Health and metrics, queues, jobs, dead letters, pause and resume, and the dashboard's pages and events (whose
     * sampler {@code closer} stops).
     */
    static List<Routes.Group> all(Injector injector, Closer closer, BatonConfig config,
                                  Supplier<Optional<OutboxBacklog>> outbox) {
        KnownQueues known = get(injector, KnownQueues.class);
        QueueEndpoints queues = new QueueEndpoints(get(injector, InspectQueueUseCase.class),
                get(injector, CountCompletionsUseCase.class), get(injector, ListDelayedJobsUseCase.class),
                get(injector, ListPartitionsUseCase.class), get(injector, ListQueuesUseCase.class), known, outbox);
        return List.of(new HealthEndpoints(Injections.get(injector, new Key<Set<HealthCheck>>() { }),
                        get(injector, PrometheusMeterRegistry.class)),
                queues,
                new JobEndpoints(get(injector, LocateJobUseCase.class), get(injector, SearchOutcomesUseCase.class),
                        queues),
                new DeadLetterEndpoints(get(injector, ListDeadLettersUseCase.class),
                        get(injector, RedriveDeadLettersUseCase.class), get(injector, PurgeDeadLettersUseCase.class),
                        queues),
                new PauseEndpoint(get(injector, PauseQueueUseCase.class), get(injector, ResumeQueueUseCase.class)),
                closer.register(new Dashboard(get(injector, ReadQueueTotalsUseCase.class), known::all,
                        config::redact)));
    }

    private static <T> T get(Injector injector, Class<T> type) {
        return Injections.get(injector, Key.get(type));
    }
}
