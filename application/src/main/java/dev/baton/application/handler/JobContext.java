package dev.baton.application.handler;

import dev.baton.domain.ConsumerName;
import dev.baton.domain.Job;
import java.time.Instant;

/** What a handler knows about the attempt it runs. */
public interface JobContext {

    Job job();

    /** This attempt's number, 1 for the first. */
    int attempt();

    ConsumerName consumer();

    /** After this instant the attempt is interrupted and counts as timed out. */
    Instant deadline();

    /**
     * The ledger's transaction as {@code type}, for example Jdbi's {@code Handle} with the PostgreSQL ledger.
     *
     * @throws UnsupportedOperationException when the worker runs without a ledger or the ledger has no such type
     */
    <T> T unwrap(Class<T> type);
}
