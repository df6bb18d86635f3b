package dev.baton.application.service;

import dev.baton.application.port.in.CountCompletionsUseCase;
import dev.baton.application.port.in.SearchOutcomesUseCase;
import dev.baton.application.port.out.JobOutcomes;
import dev.baton.domain.JobOutcome;
import dev.baton.domain.OutcomeCursor;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** Reads the ledger's history of terminal outcomes for operators: searched a page at a time, and counted. */
public final class OutcomeSearchService implements SearchOutcomesUseCase, CountCompletionsUseCase {
    private final Optional<JobOutcomes> outcomes;
    private final Clock clock;

    /** @param outcomes the ledger's record of outcomes; empty without a ledger (at-least-once) */
    public OutcomeSearchService(Optional<JobOutcomes> outcomes, Clock clock) {
        this.outcomes = outcomes;
        this.clock = clock;
    }

    /** Asks for one outcome more than the page holds: its presence says there is a next page. */
    @Override
    public Page search(SearchOutcomesUseCase.Command command) {
        int limit = command.limit();
        List<JobOutcome> found = outcomes.map(ledger -> ledger.search(command.query(), limit + 1))
                .orElse(List.of());
        if (found.size() <= limit) {
            return new Page(found, Optional.empty());
        }
        List<JobOutcome> page = found.subList(0, limit);
        return new Page(page, Optional.of(OutcomeCursor.after(page.get(page.size() - 1))));
    }

    @Override
    public OptionalLong countCompleted(CountCompletionsUseCase.Command command) {
        return outcomes.map(ledger -> OptionalLong.of(ledger.countCompletedSince(command.queue(),
                clock.instant().minus(command.window())))).orElse(OptionalLong.empty());
    }
}
