-- The ledger search (OutcomeSearch, docs/OPERATIONS.md#searching-the-ledger): a queue's outcomes newest first, by
-- state or not, keyset-paged on (time, job id). An outcome's time is completed_at for a completion, state_changed_at
-- otherwise; job ids compare byte-wise (COLLATE "C") as the search orders them.
CREATE INDEX job_outcomes_search_idx
    ON job_outcomes (queue, (COALESCE(completed_at, state_changed_at)) DESC, (job_id COLLATE "C") DESC);
CREATE INDEX job_outcomes_state_search_idx
    ON job_outcomes (queue, state, (COALESCE(completed_at, state_changed_at)) DESC, (job_id COLLATE "C") DESC);

-- Error-text search (ILIKE '%text%') through trigrams, where the pg_trgm extension is installed in the database, in
-- whatever schema (the operator class is qualified with it). Baton never installs an extension: that writes outside
-- its schema. Without pg_trgm the search reads the queue's rows through the indexes above, and the notice says how to
-- add the index (docs/POSTGRES.md#error-text-search).
DO $$
DECLARE
    trgm_schema text;
BEGIN
    SELECT n.nspname INTO trgm_schema
        FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm';
    IF trgm_schema IS NOT NULL THEN
        EXECUTE format('CREATE INDEX job_outcomes_error_trgm_idx ON job_outcomes USING gin (error_message %I.gin_trgm_ops)',
                       trgm_schema);
    ELSE
        RAISE NOTICE 'pg_trgm is not installed: error-text search reads the queue''s rows. For a trigram index, '
            'install it (CREATE EXTENSION pg_trgm SCHEMA <s>), then CREATE INDEX job_outcomes_error_trgm_idx ON '
            '%.job_outcomes USING gin (error_message <s>.gin_trgm_ops) (docs/POSTGRES.md#error-text-search)',
            quote_ident(current_schema());
    END IF;
END $$;
