-- The ledger search (OutcomeSearch, docs/OPERATIONS.md#searching-the-ledger): a queue's outcomes newest first, by
-- state or not, keyset-paged on (time, job id). An outcome's time is completed_at for a completion, state_changed_at
-- otherwise; job ids compare byte-wise (COLLATE "C") as the search orders them.
CREATE INDEX job_outcomes_search_idx
    ON job_outcomes (queue, (COALESCE(completed_at, state_changed_at)) DESC, (job_id COLLATE "C") DESC);
CREATE INDEX job_outcomes_state_search_idx
    ON job_outcomes (queue, state, (COALESCE(completed_at, state_changed_at)) DESC, (job_id COLLATE "C") DESC);

-- Error-text search (ILIKE '%text%') through trigrams, where the pg_trgm extension (PostgreSQL's contrib) is or can be
-- installed: it is trusted, so a user who may create objects in the public schema may install it. It goes to public,
-- shared by every Baton schema of the database, never into a schema of its own that dropping would take it with. Without
-- it the search still works, reading the queue's rows through the indexes above.
DO $$
DECLARE
    trgm_schema text;
BEGIN
    BEGIN
        CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public;
    EXCEPTION WHEN insufficient_privilege OR undefined_file OR invalid_schema_name OR feature_not_supported
        OR unique_violation THEN
        RAISE NOTICE 'pg_trgm is not available (%): error-text search reads the queue''s rows', SQLERRM;
    END;
    SELECT extnamespace::regnamespace::text INTO trgm_schema FROM pg_extension WHERE extname = 'pg_trgm';
    IF trgm_schema IS NOT NULL THEN
        EXECUTE format('CREATE INDEX job_outcomes_error_trgm_idx ON job_outcomes USING gin (error_message %I.gin_trgm_ops)',
                       trgm_schema);
    END IF;
END $$;
