package dev.baton.application.service;

import dev.baton.application.port.in.ListDeadLettersUseCase;
import dev.baton.application.port.in.PurgeDeadLettersUseCase;
import dev.baton.application.port.in.ReadDeadLetterUseCase;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.application.port.out.QueueAdministration;
import dev.baton.domain.DeadLetterId;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lists, reads, redrives and purges a queue's dead letters. A redrive (replay) or purge is recorded in the ledger
 * first, then done in the transport, a page of selected dead letters at a time: if the transport fails in between,
 * the ledger says replayed or purged while the dead letter is still there, and doing it again finishes it.
 */
public final class DeadLetterService
        implements ListDeadLettersUseCase, ReadDeadLetterUseCase, RedriveDeadLettersUseCase,
        PurgeDeadLettersUseCase {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterService.class);
    static final int PAGE = 100;

    private final QueueAdministration queues;
    private final JobOutcomes outcomes;
    private final Clock clock;

    /** @param outcomes the ledger's record of dead letters: {@link JobOutcomes#NOT_RECORDED} without a ledger */
    public DeadLetterService(QueueAdministration queues, JobOutcomes outcomes, Clock clock) {
        this.queues = queues;
        this.outcomes = outcomes;
        this.clock = clock;
    }

    /** Reads the transport's pages until {@code limit} selected dead letters are found, or none is left. */
    @Override
    public List<StoredDeadLetter> list(ListDeadLettersUseCase.Command command) {
        if (command.selection() instanceof DeadLetterSelection.All) {
            return queues.deadLetters(command.queue(), command.after(), command.limit());
        }
        List<StoredDeadLetter> selected = new ArrayList<>();
        Optional<DeadLetterId> after = command.after();
        while (selected.size() < command.limit()) {
            List<StoredDeadLetter> page = queues.deadLetters(command.queue(), after, PAGE);
            for (StoredDeadLetter stored : page) {
                if (command.selection().matches(stored) && selected.size() < command.limit()) {
                    selected.add(stored);
                }
            }
            if (page.size() < PAGE) {
                break;
            }
            after = Optional.of(page.get(page.size() - 1).id());
        }
        return selected;
    }

    @Override
    public Optional<StoredDeadLetter> read(ReadDeadLetterUseCase.Command command) {
        return queues.deadLetter(command.queue(), command.id());
    }

    @Override
    public int redrive(RedriveDeadLettersUseCase.Command command) {
        Instant now = clock.instant();
        int moved = forSelected(command.queue(), command.selection(), (keys, ids) -> {
            outcomes.recordReplayed(command.queue(), keys, now);
            return queues.redrive(command.queue(), ids);
        });
        LOG.info("dead letters redriven queue={} selection={} moved={}", command.queue(),
                LogText.escaped(command.selection()), moved);
        return moved;
    }

    @Override
    public int purge(PurgeDeadLettersUseCase.Command command) {
        Instant now = clock.instant();
        int deleted = forSelected(command.queue(), command.selection(), (keys, ids) -> {
            outcomes.recordPurged(command.queue(), keys, now);
            return queues.purgeDeadLetters(command.queue(), ids);
        });
        LOG.info("dead letters purged queue={} selection={} deleted={}", command.queue(),
                LogText.escaped(command.selection()), deleted);
        return deleted;
    }

    /**
     * Applies {@code action} to the selected dead letters page by page: their ledger keys and their ids. The ids, not
     * the selection, go to the transport, so that what the ledger recorded is exactly what the transport acts on.
     */
    private int forSelected(QueueName queue, DeadLetterSelection selection, PageAction action) {
        int done = 0;
        Optional<DeadLetterId> after = Optional.empty();
        while (true) {
            List<StoredDeadLetter> page = queues.deadLetters(queue, after, PAGE);
            if (page.isEmpty()) {
                return done;
            }
            List<StoredDeadLetter> selected = page.stream().filter(selection::matches).toList();
            if (!selected.isEmpty()) {
                // a malformed entry without a job id has no key to find its ledger record by: it is left as it is
                List<String> keys = selected.stream().flatMap(stored -> stored.letter().jobId().stream()).toList();
                done += action.apply(keys, new DeadLetterSelection.ByIds(
                        selected.stream().map(StoredDeadLetter::id).toList()));
            }
            after = Optional.of(page.get(page.size() - 1).id());
        }
    }

    @FunctionalInterface
    private interface PageAction {
        int apply(Collection<String> keys, DeadLetterSelection.ByIds ids);
    }
}
