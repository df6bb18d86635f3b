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
     * True once an operator cancelled the job (see docs/HANDLERS.md): the worker running it sees the cancel within
     * about a second. A handler that does long work checks it and stops early; whatever it returns or throws then,
     * its writes in the ledger's transaction roll back and the job is acknowledged without a retry. A handler that
     * goes on is interrupted after the worker's cancel grace ({@code BATON_CANCEL_GRACE}, 10 s by default).
     */
    boolean cancelled();

    /**
     * The ledger's transaction as {@code type}, for example Jdbi's {@code Handle} with the PostgreSQL ledger.
     *
     * @throws UnsupportedOperationException when the worker runs without a ledger or the ledger has no such type
     */
    <T> T unwrap(Class<T> type);
}
