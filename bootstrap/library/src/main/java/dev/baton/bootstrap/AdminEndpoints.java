package dev.baton.bootstrap;

import dev.baton.application.port.in.CancelJobUseCase;
import dev.baton.application.port.in.CountCompletionsUseCase;
import dev.baton.application.port.in.DeleteDelayedJobUseCase;
import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.ListDelayedJobsUseCase;
import dev.baton.application.port.in.ListPartitionsUseCase;
import dev.baton.application.port.in.ListQueuesUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.PauseQueueUseCase;
import dev.baton.application.port.in.PurgeDeadLettersUseCase;
import dev.baton.application.port.in.ReadAuditTrailUseCase;
import dev.baton.application.port.in.ReadDeadLetterUseCase;
import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.in.ResumeQueueUseCase;
import dev.baton.application.port.in.RunJobNowUseCase;
import dev.baton.application.port.in.SearchOutcomesUseCase;
import dev.baton.bootstrap.admin.AuditEndpoint;
import dev.baton.bootstrap.admin.Dashboard;
import dev.baton.bootstrap.admin.DeadLetterEndpoints;
import dev.baton.bootstrap.admin.HealthEndpoints;
import dev.baton.bootstrap.admin.JobActionEndpoints;
import dev.baton.bootstrap.admin.JobEndpoints;
import dev.baton.bootstrap.admin.PauseEndpoint;
import dev.baton.bootstrap.admin.QueueEndpoints;
import dev.baton.bootstrap.admin.Routes;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.metrics.KnownQueues;
import dev.baton.bootstrap.wiring.Components;
import dev.baton.domain.OutboxBacklog;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/** The admin server's endpoint groups, from one Baton instance's use cases. */
final class AdminEndpoints {
    private AdminEndpoints() {
    }

    /**
     * Health and metrics, queues, jobs and their actions, dead letters, pause and resume, the audit trail, and the
     * dashboard's pages and events (whose sampler the instance's closer stops).
     */
    static List<Routes.Group> all(Components components, BatonConfig config,
                                  Supplier<Optional<OutboxBacklog>> outbox) {
        KnownQueues known = components.queues();
        QueueEndpoints queues = new QueueEndpoints(components.use(InspectQueueUseCase.class),
                components.use(CountCompletionsUseCase.class), components.use(ListDelayedJobsUseCase.class),
                components.use(ListPartitionsUseCase.class), components.use(ListQueuesUseCase.class), known, outbox);
        return List.of(new HealthEndpoints(components.healthChecks(), components.meters()),
                queues,
                new JobEndpoints(components.use(LocateJobUseCase.class),
                        components.use(SearchOutcomesUseCase.class), queues),
                new DeadLetterEndpoints(components.use(ListDeadLettersUseCase.class),
                        components.use(ReadDeadLetterUseCase.class),
                        components.use(RedriveDeadLettersUseCase.class),
                        components.use(PurgeDeadLettersUseCase.class), queues),
                new JobActionEndpoints(components.use(LocateJobUseCase.class),
                        components.use(CancelJobUseCase.class), components.use(RunJobNowUseCase.class),
                        components.use(DeleteDelayedJobUseCase.class)),
                new PauseEndpoint(components.use(PauseQueueUseCase.class),
                        components.use(ResumeQueueUseCase.class)),
                new AuditEndpoint(components.use(ReadAuditTrailUseCase.class)),
                components.closer().register(new Dashboard(components.use(ReadQueueTotalsUseCase.class), known::all,
                        config::redact)));
    }
}
