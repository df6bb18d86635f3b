package dev.baton.application.port.out;

import java.util.Objects;

/**
 * Reads back what handlers wrote next to the ledger, to check from outside the worker that each job's effect happened
 * once (benchmarks, tests). It counts the rows of a handler's table that carry the job id in a {@code job_id} column.
 * Such a table must not be unique on the job id: every committed run of an effect then leaves a row, so an effect
 * that ran twice shows as two rows of one job, where a unique key would have refused the second run and hidden it.
 */
public interface EffectRecords {

    /**
     * The rows of {@code table} (in the ledger's schema) whose job id starts with {@code jobIdPrefix}. The prefix
     * selects the jobs of one queue: a job id is unique within its queue only, and the handler's table, keyed by job
     * id, would count one id on two queues as one effect that ran twice.
     *
     * @throws LedgerUnavailableException when the store cannot be read
     */
    Count count(String table, String jobIdPrefix);

    /**
     * @param table        the table counted
     * @param rows         its rows of the jobs counted
     * @param distinctJobs how many distinct job ids those rows carry: fewer than {@code rows} when an effect ran twice
     */
    record Count(String table, long rows, long distinctJobs) {
        public Count {
            Objects.requireNonNull(table, "table");
            if (distinctJobs < 0 || rows < distinctJobs) {
                throw new IllegalArgumentException("need 0 <= distinct jobs <= rows, got " + distinctJobs + " of "
                        + rows);
            }
        }

        /** True when each of {@code jobs} jobs left exactly one row (assuming the rows are of those jobs only). */
        public boolean oncePerJob(long jobs) {
            return rows == jobs && distinctJobs == jobs;
        }
    }
}
