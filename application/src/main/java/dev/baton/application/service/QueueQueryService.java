package dev.baton.application.service;

import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.LocateJobUseCase;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.QueueAdministration;
import java.util.Optional;
import java.util.OptionalLong;

/** Answers operators' questions about queues and jobs from the transport and, when there is one, the ledger. */
public final class QueueQueryService implements InspectQueueUseCase, LocateJobUseCase {
    private final QueueAdministration queues;
    private final Optional<ExecutionLedger> ledger;

    /** @param ledger empty when workers run at-least-once, without a ledger */
    public QueueQueryService(QueueAdministration queues, Optional<ExecutionLedger> ledger) {
        this.queues = queues;
        this.ledger = ledger;
    }

    @Override
    public QueueReport inspect(InspectQueueUseCase.Command command) {
        OptionalLong completed = ledger.map(l -> OptionalLong.of(l.countCompleted(command.queue())))
                .orElse(OptionalLong.empty());
        return new QueueReport(queues.stats(command.queue()), completed);
    }

    /** A completion wins: a completed job may still sit in the transport until its redelivery is acknowledged. */
    @Override
    public Whereabouts locate(LocateJobUseCase.Command command) {
        return ledger.flatMap(l -> l.find(command.id()))
                .filter(completion -> completion.queue().equals(command.queue()))
                .<Whereabouts>map(Whereabouts.Completed::new)
                .or(() -> queues.find(command.queue(), command.id()).map(Whereabouts.InTransport::new))
                .orElseGet(Whereabouts.Unknown::new);
    }
}
