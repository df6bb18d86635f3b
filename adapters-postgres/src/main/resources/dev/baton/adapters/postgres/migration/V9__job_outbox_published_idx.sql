-- Forgetting rows whose job ended walks the published rows in position order, a bounded window at a time from where
-- the last look stopped, and probes job_outcomes' primary key for each: this index holds the published rows alone,
-- so a look reads its window and nothing else, however many rows wait or were forgotten before it
-- (docs/POSTGRES.md#the-outbox).
CREATE INDEX job_outbox_published_idx ON job_outbox (position) WHERE published_at IS NOT NULL;
