-- A job id is unique within its queue (all partitions of a queue share it), no longer across the schema: the same
-- business key may name a job of queue 'ship' and one of queue 'email', and both run (docs/POSTGRES.md#job-ids).
-- Every row already holds its queue (NOT NULL since V1), so existing rows keep their meaning and no row changes.
--
-- The primary key becomes (job_id, queue) under its old name, job_outcomes_pkey. The new unique index is built first
-- (one read of the table and a sort; the table is not rewritten), then swapped in for the old key. While the index
-- builds, the table takes no writes (a SHARE lock): workers' commits wait, reads go on (docs/POSTGRES.md#migrations).
CREATE UNIQUE INDEX job_outcomes_job_id_queue_key ON job_outcomes (job_id, queue);
ALTER TABLE job_outcomes
    DROP CONSTRAINT job_outcomes_pkey,
    ADD CONSTRAINT job_outcomes_pkey PRIMARY KEY USING INDEX job_outcomes_job_id_queue_key;
