package dev.baton.bootstrap.faults;

/** Field names of a dead-letter stream entry as the Redis adapter writes them. */
final class DeadLetterFields {
    static final String JOB_ID = "job_id";
    static final String REASON = "dead_reason";

    private DeadLetterFields() {
    }
}
