package dev.baton.adapters.postgres;

import static dev.baton.adapters.postgres.SqlFailures.unavailable;

import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.out.ExecutionLedger.Effect;
import dev.baton.application.port.out.ExecutionLedger.Execution;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.domain.Completion;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.postgresql.core.TransactionState;

/** Runs a handler's effect inside the ledger's open transaction, guarded by {@link EffectGuard}. */
final class EffectRunner {
    private final LedgerTransactions transactions;

    EffectRunner(LedgerTransactions transactions) {
        this.transactions = Objects.requireNonNull(transactions, "transactions");
    }

    /**
     * Runs the effect: {@link TransactionStep.Ran} with the job's completion when it returned, else
     * {@link TransactionStep.Settled} with its failure. A transaction that was open before it (the claim, or the
     * timeouts, went first), or that the effect's statements began, and that is closed after it, was ended by the
     * handler with {@code COMMIT} or {@code ROLLBACK} sent as SQL: its writes committed, or are gone, without the
     * completion. Recording the completion now could claim an effect that never committed, and a retry could write a
     * committed one twice, so the job fails for good. An effect that sent nothing leaves the driver's transaction
     * unbegun: that is no ending.
     *
     * @throws dev.baton.application.port.out.LedgerUnavailableException when the connection was lost while it ran
     */
    TransactionStep run(Handle handle, Execution execution, Effect effect) {
        JobId jobId = execution.job().id();
        boolean begun = LedgerTransactions.transactionState(handle, jobId) != TransactionState.IDLE;
        EffectGuard.Run run = new EffectGuard.Run();
        Optional<String> result;
        try {
            result = Objects.requireNonNullElse(
                    EffectGuard.whileEffectRuns(run, () -> effect.run(new JdbiLedgerTransaction(handle))),
                    Optional.empty());
        } catch (Exception e) {
            // an InterruptedException stays the cause only: the worker owns its thread's interrupt status
            if (SqlFailures.isConnectionLoss(e) && !SqlFailures.isClosedByInterrupt(e)) {
                throw unavailable("lost the ledger connection while job " + jobId + " ran; nothing was committed", e);
            }
            return TransactionStep.Settled.failed(e);
        }
        if ((begun || run.sentStatements())
                && LedgerTransactions.transactionState(handle, jobId) == TransactionState.IDLE) {
            return TransactionStep.Settled.failed(new EndedTransaction("the effect of job " + jobId + " ended the"
                    + " ledger's transaction itself (COMMIT or ROLLBACK sent as SQL): its writes may have committed"
                    + " without the job's completion, so it is not retried"));
        }
        return new TransactionStep.Ran(completion(execution, result));
    }

    /** True when {@code reached} shows an effect that sent statements and ended the ledger's transaction itself. */
    static boolean endedTheTransaction(TransactionStep reached) {
        return reached instanceof TransactionStep.Settled settled
                && settled.outcome() instanceof LedgerOutcome.EffectFailed failed
                && failed.cause() instanceof EndedTransaction;
    }

    /** Why a job fails whose effect caught an SQL error and returned normally, leaving its transaction aborted. */
    static String leftAborted(JobId jobId) {
        return "the effect of job " + jobId + " left its transaction aborted: it caught an SQL error and returned"
                + " normally";
    }

    private Completion completion(Execution execution, Optional<String> result) {
        Job job = execution.job();
        return new Completion(job.id(), job.queue(), job.type(), job.currentAttempt(), execution.consumer(),
                execution.deliveryId().value(), result, transactions.now());
    }

    /** The failure of a job whose effect ended the ledger's transaction itself: not to be retried. */
    static final class EndedTransaction extends NonRetryableException {
        EndedTransaction(String message) {
            super(message);
        }
    }
}
