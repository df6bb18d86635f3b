-- The execution ledger's record of how each job ended, one row per job id (every completion of V1 kept, as
-- 'completed'): 'completed' (its effect committed, the row written in the effect's own transaction), or 'dead' (gone
-- to the dead letters, written before the transport moved it), then 'replayed' (an operator redrove it: it runs again
-- and turns 'completed', or 'dead' anew) or 'purged' (an operator deleted its dead letter: it never runs again).
ALTER TABLE job_completions RENAME TO job_outcomes;
ALTER INDEX job_completions_pkey RENAME TO job_outcomes_pkey;
ALTER INDEX job_completions_queue_idx RENAME TO job_outcomes_queue_idx;
ALTER INDEX job_completions_completed_at_idx RENAME TO job_outcomes_completed_at_idx;

-- a dead row's attempt is the attempts made (0 for a malformed entry); completed_at is set exactly when completed
ALTER TABLE job_outcomes DROP CONSTRAINT job_completions_attempt_check;
ALTER TABLE job_outcomes ALTER COLUMN completed_at DROP NOT NULL;
ALTER TABLE job_outcomes
    ADD COLUMN state            text        NOT NULL DEFAULT 'completed'
        CHECK (state IN ('completed', 'dead', 'replayed', 'purged')),
    -- the DeadLetterReason name, and the last attempt's error, of a job that went to the dead letters
    ADD COLUMN reason           text,
    ADD COLUMN error_type       text,
    ADD COLUMN error_message    text,
    ADD COLUMN dead_at          timestamptz,
    -- when it went dead, or was replayed or purged (a completion's time is completed_at)
    ADD COLUMN state_changed_at timestamptz,
    ADD CONSTRAINT job_outcomes_attempt_check CHECK (attempt >= 0),
    ADD CONSTRAINT job_outcomes_completed_at_check CHECK ((state = 'completed') = (completed_at IS NOT NULL)),
    ADD CONSTRAINT job_outcomes_dead_check CHECK (state = 'completed' OR (reason IS NOT NULL AND error_type IS NOT NULL
        AND dead_at IS NOT NULL AND state_changed_at IS NOT NULL));

-- forgetBefore(cutoff): purged rows go after the retention, like completions
CREATE INDEX job_outcomes_purged_idx ON job_outcomes (state_changed_at) WHERE state = 'purged';
