-- the outbox's gauges count the rows dead-lettered MALFORMED: an index of them alone keeps that count a small read
CREATE INDEX job_outbox_malformed_idx ON job_outbox (position) WHERE malformed IS NOT NULL;
