package dev.baton.application.service;

import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.ListDelayedJobsUseCase;
import dev.baton.application.port.in.ListPartitionsUseCase;
import dev.baton.application.port.in.ListQueuesUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.in.ReadQueueTotalsUseCase;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.application.port.out.QueueOverview;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.JobSighting;
import dev.baton.domain.PartitionStats;
import dev.baton.domain.QueueListing;
import dev.baton.domain.QueueName;
import dev.baton.domain.QueueTotals;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/** Answers operators' questions about queues and jobs from the transport and, when there is one, the ledger. */
public final class QueueQueryService
        implements InspectQueueUseCase, LocateJobUseCase, ListDelayedJobsUseCase, ListPartitionsUseCase,
        ListQueuesUseCase, ReadQueueTotalsUseCase {
    private final QueueAdministration queues;
    private final QueueOverview overview;
    private final Optional<ExecutionLedger> ledger;
    private final JobOutcomes outcomes;

    /**
     * @param ledger   empty when workers run at-least-once, without a ledger
     * @param outcomes the ledger's record of how jobs ended: {@link JobOutcomes#NOT_RECORDED} without a ledger
     */
    public QueueQueryService(QueueAdministration queues, QueueOverview overview, Optional<ExecutionLedger> ledger,
                             JobOutcomes outcomes) {
        this.queues = queues;
        this.overview = overview;
        this.ledger = ledger;
        this.outcomes = outcomes;
    }

    @Override
    public QueueReport inspect(InspectQueueUseCase.Command command) {
        OptionalLong completed = ledger.map(l -> OptionalLong.of(l.countCompleted(command.queue())))
                .orElse(OptionalLong.empty());
        return new QueueReport(queues.stats(command.queue()), completed, outcomes.countDead(command.queue()));
    }

    @Override
    public Map<QueueName, QueueTotals> totals(ReadQueueTotalsUseCase.Command command) {
        return command.queues().isEmpty() ? Map.of() : overview.totals(command.queues());
    }

    /**
     * The ledger wins: a completed job may still sit in the transport until its redelivery is acknowledged, and a
     * dead one may have been lost by it.
     */
    @Override
    public Whereabouts locate(LocateJobUseCase.Command command) {
        Optional<JobOutcome> recorded = outcomes.find(command.queue(), command.id().value());
        Optional<JobSighting> sighting = queues.find(command.queue(), command.id());
        if (recorded.isPresent()) {
            return recorded.get() instanceof JobOutcome.Completed completed
                    ? new Whereabouts.Completed(completed.completion())
                    : new Whereabouts.DeadLettered(recorded.get(), sighting);
        }
        return sighting.<Whereabouts>map(Whereabouts.InTransport::new).orElseGet(Whereabouts.Unknown::new);
    }

    @Override
    public List<JobSighting.Delayed> listDelayed(ListDelayedJobsUseCase.Command command) {
        return overview.delayed(command.queue(), command.limit());
    }

    @Override
    public List<PartitionStats> partitions(ListPartitionsUseCase.Command command) {
        return overview.partitionStats(command.queue());
    }

    @Override
    public QueueListing queues() {
        return overview.queues();
    }
}
