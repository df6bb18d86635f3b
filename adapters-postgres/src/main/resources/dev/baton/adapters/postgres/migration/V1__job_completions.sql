-- The execution ledger: one row per job whose effect committed, written in the effect's own transaction.
-- Keyed by the caller's job id (never the stream message id, which changes on retry, redrive or replay).
CREATE TABLE job_completions (
    job_id       text        PRIMARY KEY,
    queue        text        NOT NULL,
    type         text,
    attempt      integer     NOT NULL CHECK (attempt >= 1),
    consumer     text        NOT NULL,
    message_id   text        NOT NULL,
    result       text,
    completed_at timestamptz NOT NULL
);

-- countCompleted(queue)
CREATE INDEX job_completions_queue_idx ON job_completions (queue);
-- forgetCompletedBefore(cutoff)
CREATE INDEX job_completions_completed_at_idx ON job_completions (completed_at);
