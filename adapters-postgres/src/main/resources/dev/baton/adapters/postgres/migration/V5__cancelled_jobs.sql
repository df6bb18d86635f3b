-- 'cancelled': an operator cancelled the job before it completed (written before the transport hears of it). It
-- never runs again: a completion's insert conflicts with the row and rolls back, like a dead job's. It keeps no
-- dead letter's columns, and goes after the retention, like a purged row.
ALTER TABLE job_outcomes DROP CONSTRAINT job_outcomes_state_check;
ALTER TABLE job_outcomes DROP CONSTRAINT job_outcomes_dead_check;
ALTER TABLE job_outcomes
    ADD CONSTRAINT job_outcomes_state_check
        CHECK (state IN ('completed', 'dead', 'replayed', 'purged', 'cancelled')),
    ADD CONSTRAINT job_outcomes_dead_check CHECK (state IN ('completed', 'cancelled') OR (reason IS NOT NULL
        AND error_type IS NOT NULL AND dead_at IS NOT NULL AND state_changed_at IS NOT NULL)),
    ADD CONSTRAINT job_outcomes_cancelled_check CHECK (state <> 'cancelled' OR state_changed_at IS NOT NULL);

-- forgetBefore(cutoff): cancelled rows go after the retention, like purged ones
CREATE INDEX job_outcomes_cancelled_idx ON job_outcomes (state_changed_at) WHERE state = 'cancelled';
