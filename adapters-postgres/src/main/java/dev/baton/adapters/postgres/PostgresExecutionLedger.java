package dev.baton.adapters.postgres;

import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.out.ExecutionLedger;
import dev.baton.application.port.out.LedgerOutcome;
import dev.baton.application.port.out.LedgerOutcome.AlreadyCompleted;
import dev.baton.application.port.out.LedgerOutcome.Committed;
import dev.baton.application.port.out.LedgerUnavailableException;
import dev.baton.domain.Completion;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.HandleCallback;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.JdbiException;
import org.postgresql.PGStatement;
import org.postgresql.core.BaseConnection;
import org.postgresql.core.TransactionState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The execution ledger in PostgreSQL. One job, one READ COMMITTED transaction, the effect on the same connection as
 * the completion row, whose primary key is the job id:
 * <ul>
 *   <li>a redelivery claims the job id first with {@code INSERT ... ON CONFLICT DO NOTHING}, runs the effect, records
 *       its result and commits: a job that completed does not run again;</li>
 *   <li>a first delivery, rarely of a completed job, runs the effect first and inserts the completion with the
 *       commit, in one round trip less; a key conflict on that insert means the job completed, and the transaction
 *       rolls back.</li>
 * </ul>
 * A worker racing on the same job id blocks on the other one's uncommitted row, then finds it committed (and reports
 * {@link AlreadyCompleted}) or rolled back (and goes on itself).
 */
final class PostgresExecutionLedger implements ExecutionLedger {
    static final String TABLE = "job_completions";
    static final int FORGET_BATCH_SIZE = 1_000;

    private static final Logger LOG = LoggerFactory.getLogger(PostgresExecutionLedger.class);
    private static final CompletionMapper MAPPER = new CompletionMapper();
    // statement_timeout is an int of milliseconds
    private static final Duration MAX_TIMEOUT = Duration.ofMillis(Integer.MAX_VALUE);
    // an attempt that starts at (or after) its deadline still gets this long, so the ledger's own statements can
    // finish and report cleanly instead of failing with a timeout of their own
    private static final Duration MIN_TIMEOUT = Duration.ofSeconds(1);
    private static final String SAVEPOINT = "baton_job";
    private static final String TIMEOUTS_SQL = "SELECT set_config('statement_timeout', ?, true),"
            + " set_config('idle_in_transaction_session_timeout', ?, true)";

    private final Jdbi jdbi;
    private final Clock clock;
    private final int forgetBatchSize;
    /** The timeouts every pooled connection already has, if the pool sets them (see {@code Config}). */
    private final Optional<Duration> sessionTimeout;
    private final Statements claimOnly;
    private final Statements single;
    private final Statements firstInBatch;
    private final Statements nextInBatch;
    private final String schema;
    private final String insertCompletedSql;
    private final String completeBatchSql;
    private final String findSql;
    private final String countSql;
    private final String forgetSql;

    PostgresExecutionLedger(Jdbi jdbi, String schema, Clock clock, int forgetBatchSize,
                            Optional<Duration> sessionTimeout) {
        this.jdbi = Objects.requireNonNull(jdbi, "jdbi");
        this.sessionTimeout = Objects.requireNonNull(sessionTimeout, "session timeout");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (forgetBatchSize < 1) {
            throw new IllegalArgumentException("forget batch size must be positive, got " + forgetBatchSize);
        }
        this.forgetBatchSize = forgetBatchSize;
        this.schema = Objects.requireNonNull(schema, "schema");
        String table = schema + "." + TABLE;
        String claimSql = "INSERT INTO " + table
                + " (job_id, queue, type, attempt, consumer, message_id, completed_at)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (job_id) DO NOTHING";
        String completeSql = "UPDATE " + table + " SET result = ?, completed_at = ? WHERE job_id = ?";
        // the ledger's statements ride along with the ones they follow or precede: a job alone costs two round trips
        // besides its effect's, the timeouts (when needed) travelling with the claim and the commit with the result
        this.single = new Statements(TIMEOUTS_SQL + "; " + claimSql, true, completeSql + "; COMMIT");
        this.claimOnly = new Statements(claimSql, false, single.complete());
        this.insertCompletedSql = "INSERT INTO " + table
                + " (job_id, queue, type, attempt, consumer, message_id, completed_at, result)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?); COMMIT";
        // in a batch, each claim releases the previous job's savepoint and sets its own; the results wait for the
        // commit and go with it in one statement
        this.firstInBatch = new Statements("SAVEPOINT " + SAVEPOINT + "; " + claimSql, false, null);
        this.nextInBatch = new Statements("RELEASE SAVEPOINT " + SAVEPOINT + "; " + firstInBatch.claim(), false,
                null);
        this.completeBatchSql = "UPDATE " + table + " AS c SET result = r.result, completed_at = r.completed_at"
                + "::timestamptz FROM unnest(?::text[], ?::text[], ?::text[]) AS r(job_id, result, completed_at)"
                + " WHERE c.job_id = r.job_id; COMMIT";
        this.findSql = "SELECT " + CompletionMapper.COLUMNS + " FROM " + table + " WHERE job_id = :jobId";
        this.countSql = "SELECT count(*) FROM " + table + " WHERE queue = :queue";
        this.forgetSql = "DELETE FROM " + table + " WHERE job_id IN (SELECT job_id FROM " + table
                + " WHERE completed_at < :cutoff LIMIT :limit FOR UPDATE SKIP LOCKED)";
    }

    @Override
    public LedgerOutcome execute(Execution execution, Effect effect) {
        Objects.requireNonNull(execution, "execution");
        Objects.requireNonNull(effect, "effect");
        try {
            return executeOne(execution, effect);
        } catch (EffectFailedException e) {
            return new LedgerOutcome.EffectFailed(e.getCause());
        } catch (LedgerUnavailableException e) {
            return new LedgerOutcome.Unknown(e);
        }
    }

    private LedgerOutcome executeOne(Execution execution, Effect effect) {
        JobId jobId = execution.job().id();
        Handle handle = open(jobId);
        try {
            begin(handle, jobId);
            LedgerOutcome outcome = execution.isRedelivery()
                    ? record(handle, execution, effect, needsTimeouts(execution.deadline()) ? single : claimOnly)
                    : recordLast(handle, execution, effect);
            if (outcome instanceof Committed) {
                commit(handle, jobId); // committed already with the result: this only ends Jdbi's transaction
            } else {
                rollbackQuietly(handle);
            }
            return outcome;
        } catch (RuntimeException | Error e) {
            rollbackQuietly(handle);
            throw e;
        } finally {
            closeQuietly(handle);
        }
    }

    /**
     * One transaction for the whole batch, one savepoint per job: a job whose effect fails, or that completed already,
     * is rolled back to its savepoint alone; the rest commit together (one WAL flush). Claims are taken in job-id
     * order, so two batches sharing jobs wait for each other instead of deadlocking. A job costs one round trip
     * besides its effect's (release, savepoint and claim together); the results travel with the commit.
     */
    @Override
    public List<LedgerOutcome> executeAll(List<Step> steps) {
        Objects.requireNonNull(steps, "steps");
        if (steps.size() <= 1) {
            return ExecutionLedger.super.executeAll(steps); // no savepoint round trips for a batch of one
        }
        try {
            return executeBatch(steps);
        } catch (LedgerUnavailableException e) {
            LedgerOutcome unknown = new LedgerOutcome.Unknown(e);
            return steps.stream().map(step -> unknown).toList();
        }
    }

    private List<LedgerOutcome> executeBatch(List<Step> steps) {
        Integer[] order = new Integer[steps.size()];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, Comparator.comparing(i -> steps.get(i).execution().job().id().value()));
        Execution first = steps.get(order[0]).execution();
        Instant earliest = steps.stream().map(step -> step.execution().deadline()).min(Comparator.naturalOrder())
                .orElseThrow();
        LedgerOutcome[] outcomes = new LedgerOutcome[steps.size()];
        Handle handle = open(first.job().id());
        try {
            begin(handle, first.job().id());
            if (needsTimeouts(earliest)) {
                setTimeouts(handle, first.job().id(), earliest);
            }
            Statements statements = firstInBatch;
            for (int i : order) {
                outcomes[i] = recordStep(handle, steps.get(i), statements);
                statements = nextInBatch;
            }
            commitBatch(handle, first.job().id(), outcomes);
            return List.of(outcomes);
        } catch (RuntimeException | Error e) {
            rollbackQuietly(handle);
            throw e;
        } finally {
            closeQuietly(handle);
        }
    }

    private LedgerOutcome recordStep(Handle handle, Step step, Statements statements) {
        JobId jobId = step.execution().job().id();
        LedgerOutcome outcome;
        try {
            outcome = record(handle, step.execution(), step.effect(), statements);
        } catch (EffectFailedException e) {
            outcome = new LedgerOutcome.EffectFailed(e.getCause());
        }
        // the driver's state, not Jdbi's: a ROLLBACK sent as SQL does not end Jdbi's transaction
        TransactionState state = transactionState(handle, jobId);
        if (state == TransactionState.IDLE) {
            throw new LedgerUnavailableException("the effect of job " + jobId + " ended the batch's transaction"
                    + " itself: the outcome of the jobs before it is unknown", null);
        }
        if (state == TransactionState.FAILED && !(outcome instanceof LedgerOutcome.EffectFailed)) {
            // no statement of its own follows this job's effect to find out: the driver knows
            outcome = new LedgerOutcome.EffectFailed(new IllegalStateException("the effect of job " + jobId
                    + " left its transaction aborted: it caught an SQL error and returned normally"));
        }
        if (!(outcome instanceof Committed)) {
            try (Statement statement = handle.getConnection().createStatement()) {
                statement.execute("ROLLBACK TO SAVEPOINT " + SAVEPOINT);
            } catch (SQLException e) {
                throw unavailable("could not roll back the savepoint of job " + jobId, e);
            }
        }
        return outcome;
    }

    /**
     * A deferred constraint failing at commit rolls back every job: each of them failed and will be retried (a
     * duplicate too: it may have been a duplicate of a job of this very batch, which did not commit after all).
     */
    private void commitBatch(Handle handle, JobId firstJob, LedgerOutcome[] outcomes) {
        try {
            completeAllAndCommit(handle, firstJob, Arrays.stream(outcomes)
                    .filter(outcome -> outcome instanceof Committed)
                    .map(outcome -> ((Committed) outcome).completion())
                    .toList());
        } catch (EffectFailedException e) {
            for (int i = 0; i < outcomes.length; i++) {
                if (!(outcomes[i] instanceof LedgerOutcome.EffectFailed)) {
                    outcomes[i] = new LedgerOutcome.EffectFailed(e.getCause());
                }
            }
        }
    }

    /** Records the batch's results and commits, in one round trip. */
    private void completeAllAndCommit(Handle handle, JobId firstJob, List<Completion> completions) {
        if (completions.isEmpty()) {
            commit(handle, firstJob);
            return;
        }
        Connection connection = handle.getConnection();
        try (PreparedStatement statement = connection.prepareStatement(completeBatchSql)) {
            // planned each time with its arrays: a cached generic plan, made while the table was small, would join
            // with a sequential scan of the whole ledger for ever after
            statement.unwrap(PGStatement.class).setPrepareThreshold(0);
            statement.setArray(1, connection.createArrayOf("text",
                    completions.stream().map(completion -> completion.jobId().value()).toArray()));
            statement.setArray(2, connection.createArrayOf("text",
                    completions.stream().map(completion -> completion.result().orElse(null)).toArray()));
            statement.setArray(3, connection.createArrayOf("text",
                    completions.stream().map(completion -> completion.completedAt().toString()).toArray()));
            lastUpdateCount(statement);
        } catch (SQLException e) {
            if (SqlFailures.isIntegrityViolation(e)) {
                // a deferred constraint on the effects' writes failed at the commit: the server rolled it all back
                throw new EffectFailedException(e);
            }
            throw unavailable("the commit of the batch of job " + firstJob + " was not confirmed, it may or may not"
                    + " have happened: the redeliveries will find out", e);
        }
        commit(handle, firstJob); // committed already: this only ends Jdbi's transaction
    }

    private static TransactionState transactionState(Handle handle, JobId jobId) {
        try {
            return handle.getConnection().unwrap(BaseConnection.class).getTransactionState();
        } catch (SQLException e) {
            throw unavailable("could not check the transaction of job " + jobId, e);
        }
    }

    /**
     * Claims the job and runs its effect inside {@code handle}'s open transaction, and writes its result if
     * {@code statements} say how; the caller commits (the outcome is {@link Committed} only once it has) or rolls
     * back. Kept apart from the transaction so that a batch can call it once per job between savepoints and commit
     * many jobs at once.
     */
    private LedgerOutcome record(Handle handle, Execution execution, Effect effect, Statements statements) {
        JobId jobId = execution.job().id();
        if (!claim(handle, execution, statements)) {
            // a new statement, so a new READ COMMITTED snapshot: it sees the row the claim waited for
            return new AlreadyCompleted(select(handle, jobId).orElseThrow(() -> new LedgerUnavailableException(
                    "the completion of job " + jobId + " vanished while claiming it (retention ran at the same time)",
                    null)));
        }
        Optional<String> result = run(effect, handle, jobId);
        Completion completion = completion(execution, result);
        if (statements.complete() != null) {
            completeAndCommit(handle, jobId, statements.complete(), statement -> {
                statement.setString(1, completion.result().orElse(null));
                statement.setObject(2, utc(completion.completedAt()));
                statement.setString(3, jobId.value());
            });
        }
        return new Committed(completion);
    }

    /**
     * A first delivery: runs the effect, then inserts the completion and commits in one round trip. A key conflict
     * (the job completed meanwhile, or before) rolls back and reports the completion; so does an effect failing on a
     * completed job (on a unique key of its own, say), which is then no failure at all.
     */
    private LedgerOutcome recordLast(Handle handle, Execution execution, Effect effect) {
        JobId jobId = execution.job().id();
        if (needsTimeouts(execution.deadline())) {
            setTimeouts(handle, jobId, execution.deadline());
        }
        Optional<String> result;
        try {
            result = run(effect, handle, jobId);
        } catch (EffectFailedException e) {
            rollbackQuietly(handle);
            return select(handle, jobId).<LedgerOutcome>map(AlreadyCompleted::new).orElseThrow(() -> e);
        }
        Completion completion = completion(execution, result);
        boolean inserted = completeAndCommit(handle, jobId, insertCompletedSql, statement -> {
            bindClaim(statement, 0, execution, completion.completedAt());
            statement.setString(8, completion.result().orElse(null));
        });
        if (inserted) {
            return new Committed(completion);
        }
        rollbackQuietly(handle);
        return new AlreadyCompleted(select(handle, jobId).orElseThrow(() -> new LedgerUnavailableException(
                "the completion of job " + jobId + " vanished after a key conflict (retention ran at the same time)",
                null)));
    }

    private Completion completion(Execution execution, Optional<String> result) {
        Job job = execution.job();
        return new Completion(job.id(), job.queue(), job.type(), job.currentAttempt(), execution.consumer(),
                execution.deliveryId().value(), result, now());
    }

    private Handle open(JobId jobId) {
        try {
            return jdbi.open();
        } catch (JdbiException e) {
            throw unavailable("no ledger connection for job " + jobId, e);
        }
    }

    /** Starts the transaction (the driver sends {@code BEGIN} with its first statement). */
    private static void begin(Handle handle, JobId jobId) {
        try {
            handle.begin();
        } catch (JdbiException e) {
            throw unavailable("could not start the ledger transaction of job " + jobId, e);
        }
    }

    /**
     * Whether the transaction must set its own timeouts: not when the connection's session timeouts are at least the
     * time left and at most a tenth longer (a transaction usually starts a few milliseconds into its attempt, so one
     * statement per job is saved); a deadline further out than the session's would otherwise be cut short.
     */
    private boolean needsTimeouts(Instant deadline) {
        if (sessionTimeout.isEmpty()) {
            return true;
        }
        Duration remaining = Duration.between(clock.instant(), deadline);
        Duration session = sessionTimeout.get();
        return remaining.compareTo(session) > 0 || remaining.compareTo(session.minus(session.dividedBy(10))) < 0;
    }

    /** The server ends the transaction (and frees its locks) once the attempt's deadline has passed. */
    private void setTimeouts(Handle handle, JobId jobId, Instant deadline) {
        try (PreparedStatement statement = handle.getConnection().prepareStatement(TIMEOUTS_SQL)) {
            bindTimeouts(statement, deadline);
            statement.executeQuery().close();
        } catch (SQLException e) {
            throw unavailable("could not start the ledger transaction of job " + jobId, e);
        }
    }

    /** Binds the two parameters of {@link #TIMEOUTS_SQL}. */
    private void bindTimeouts(PreparedStatement statement, Instant deadline) throws SQLException {
        Duration remaining = Duration.between(clock.instant(), deadline);
        String timeoutMillis = Long.toString(remaining.compareTo(MAX_TIMEOUT) > 0 ? MAX_TIMEOUT.toMillis()
                : Math.max(MIN_TIMEOUT.toMillis(), remaining.toMillis()));
        statement.setString(1, timeoutMillis);
        statement.setString(2, timeoutMillis);
    }

    /** The ledger's own statements go straight to JDBC: Jdbi's binding machinery cost more than the statements. */
    private boolean claim(Handle handle, Execution execution, Statements statements) {
        Job job = execution.job();
        try (PreparedStatement statement = handle.getConnection().prepareStatement(statements.claim())) {
            int at = 0;
            if (statements.timeoutsFirst()) {
                bindTimeouts(statement, execution.deadline());
                at = 2;
            }
            bindClaim(statement, at, execution, now());
            return lastUpdateCount(statement) == 1;
        } catch (SQLException e) {
            throw unavailable("could not claim job " + job.id(), e);
        }
    }

    /** Binds the seven columns of a claim (or a completion) from parameter {@code at + 1} on. */
    private static void bindClaim(PreparedStatement statement, int at, Execution execution, Instant completedAt)
            throws SQLException {
        Job job = execution.job();
        statement.setString(at + 1, job.id().value());
        statement.setString(at + 2, job.queue().value());
        statement.setString(at + 3, job.type().orElse(null));
        statement.setInt(at + 4, job.currentAttempt());
        statement.setString(at + 5, execution.consumer().value());
        statement.setString(at + 6, execution.deliveryId().value());
        statement.setObject(at + 7, utc(completedAt));
    }

    /** Runs the statement(s) and returns the update count of the last one. */
    private static int lastUpdateCount(PreparedStatement statement) throws SQLException {
        statement.execute();
        int count = statement.getUpdateCount();
        while (statement.getMoreResults() || statement.getUpdateCount() != -1) {
            count = statement.getUpdateCount() == -1 ? count : statement.getUpdateCount();
        }
        return count;
    }

    /**
     * Runs the effect. A transaction that was open before it (the claim, or the timeouts, went first), or that the
     * effect's statements began, and that is closed after it, was ended by the handler with {@code COMMIT} or
     * {@code ROLLBACK} sent as SQL: its writes committed, or are gone, without the completion. Recording the
     * completion now could claim an effect that never committed, and a retry could write a committed one twice, so
     * the job fails for good. (An effect that sent nothing leaves the driver's transaction unbegun: that is no ending.)
     */
    private Optional<String> run(Effect effect, Handle handle, JobId jobId) {
        boolean begun = transactionState(handle, jobId) != TransactionState.IDLE;
        EffectGuard.Run run = new EffectGuard.Run();
        Optional<String> result = runGuarded(effect, handle, jobId, run);
        if ((begun || run.sentStatements()) && transactionState(handle, jobId) == TransactionState.IDLE) {
            throw new EffectFailedException(new NonRetryableException("the effect of job " + jobId + " ended the"
                    + " ledger's transaction itself (COMMIT or ROLLBACK sent as SQL): its writes may have committed"
                    + " without the job's completion, so it is not retried"));
        }
        return result;
    }

    private Optional<String> runGuarded(Effect effect, Handle handle, JobId jobId, EffectGuard.Run run) {
        try {
            return Objects.requireNonNullElse(
                    EffectGuard.whileEffectRuns(run, () -> effect.run(new JdbiLedgerTransaction(handle))),
                    Optional.empty());
        } catch (Exception e) {
            // an InterruptedException stays the cause only: the worker owns its thread's interrupt status
            if (SqlFailures.isConnectionLoss(e) && !SqlFailures.isInterruption(e)) {
                throw unavailable("lost the ledger connection while job " + jobId + " ran; nothing was committed", e);
            }
            throw new EffectFailedException(e);
        }
    }

    /**
     * Writes the job's completion with {@code sql}, which commits. @return false when the completion's insert found
     * the job id taken: the transaction is then aborted, and nothing was committed
     */
    private boolean completeAndCommit(Handle handle, JobId jobId, String sql, Binder binder) {
        if (!handle.isInTransaction()) {
            throw new EffectFailedException(new IllegalStateException(
                    "the effect of job " + jobId + " committed or rolled back the ledger's transaction itself"));
        }
        try (PreparedStatement statement = handle.getConnection().prepareStatement(sql)) {
            binder.bind(statement);
            lastUpdateCount(statement);
            return true;
        } catch (SQLException e) {
            if (SqlFailures.isUniqueViolationOf(e, schema, TABLE + "_pkey")) {
                return false;
            }
            if (SqlFailures.isAbortedTransaction(e)) {
                throw new EffectFailedException(new IllegalStateException("the effect of job " + jobId
                        + " left its transaction aborted: it caught an SQL error and returned normally", e));
            }
            if (SqlFailures.isIntegrityViolation(e) || SqlFailures.isDeadlock(e)) {
                // a deferred constraint on the effect's writes failed at the commit, or the completion's insert
                // waited in a deadlock with the effect's locks: the server rolled it all back
                throw new EffectFailedException(e);
            }
            throw unavailable("the completion of job " + jobId + " was not confirmed, it may or may not have"
                    + " committed: its redelivery will find out", e);
        }
    }

    private void commit(Handle handle, JobId jobId) {
        try {
            handle.commit();
        } catch (JdbiException e) {
            if (SqlFailures.isIntegrityViolation(e)) {
                // a deferred constraint on the effect's writes failed: the server rolled everything back
                throw new EffectFailedException(SqlFailures.sqlException(e).orElseThrow());
            }
            throw unavailable("the commit of job " + jobId
                    + " was not confirmed, it may or may not have happened: its redelivery will find out", e);
        }
    }

    @Override
    public Optional<Completion> find(JobId id) {
        Objects.requireNonNull(id, "job id");
        return withHandle("could not look up job " + id, handle -> select(handle, id));
    }

    private Optional<Completion> select(Handle handle, JobId id) {
        try {
            return handle.createQuery(findSql).bind("jobId", id.value()).map(MAPPER).findOne();
        } catch (JdbiException e) {
            throw unavailable("could not look up job " + id, e);
        }
    }

    @Override
    public long countCompleted(QueueName queue) {
        Objects.requireNonNull(queue, "queue");
        return withHandle("could not count the completions of queue " + queue,
                handle -> handle.createQuery(countSql).bind("queue", queue.value()).mapTo(long.class).one());
    }

    /** Deletes in batches, each its own short transaction, so that a large backlog never holds locks for long. */
    @Override
    public long forgetCompletedBefore(Instant cutoff) {
        Objects.requireNonNull(cutoff, "cutoff");
        return withHandle("could not forget the completions before " + cutoff, handle -> {
            long forgotten = 0;
            int deleted;
            do {
                deleted = handle.createUpdate(forgetSql)
                        .bind("cutoff", utc(cutoff))
                        .bind("limit", forgetBatchSize)
                        .execute();
                forgotten += deleted;
            } while (deleted == forgetBatchSize);
            return forgotten;
        });
    }

    private <T> T withHandle(String failure, HandleCallback<T, RuntimeException> callback) {
        try {
            return jdbi.withHandle(callback);
        } catch (JdbiException e) {
            throw unavailable(failure, e);
        }
    }

    /** PostgreSQL keeps microseconds: truncating first makes the returned completion equal to the stored one. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }

    /**
     * Ends Jdbi's transaction, then rolls back on the connection itself whatever Jdbi believed: should a handler have
     * ended Jdbi's transaction (through its {@code Handle}'s raw connection, which is not guarded), closing the handle
     * would restore auto-commit, which commits. The driver sends nothing when no transaction is open.
     */
    private static void rollbackQuietly(Handle handle) {
        try {
            if (handle.isInTransaction()) {
                handle.rollback();
            }
            Connection connection = handle.getConnection();
            if (!connection.getAutoCommit()) {
                connection.rollback();
            }
        } catch (JdbiException | SQLException e) {
            // the connection is gone: the server has rolled back already
            LOG.debug("rollback failed", e);
        }
    }

    private static void closeQuietly(Handle handle) {
        try {
            handle.close();
        } catch (JdbiException e) {
            LOG.debug("closing the ledger connection failed", e);
        }
    }

    /**
     * The ledger's statements around a job's effect: the claim (after the timeouts of {@link #TIMEOUTS_SQL} when
     * {@code timeoutsFirst}) and the result.
     */
    private record Statements(String claim, boolean timeoutsFirst, String complete) {
    }

    /** Sets a statement's parameters. */
    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    private static LedgerUnavailableException unavailable(String message, Throwable cause) {
        return new LedgerUnavailableException(message + ": " + reason(cause), cause);
    }

    /** The driver's message (SQLSTATE and server text) without Jdbi's statement dump, which may hold job data. */
    private static String reason(Throwable failure) {
        return SqlFailures.sqlException(failure)
                .map(sql -> sql.getMessage() + " [SQLSTATE " + sql.getSQLState() + "]")
                .orElseGet(() -> String.valueOf(failure.getMessage()));
    }
}
