-- The transactional outbox: jobs enqueued inside a producer's own transaction, which a relay publishes to Redis once
-- that transaction committed. A row stays after it is published (published_at set) until the job's terminal outcome
-- commits in job_outcomes, so that jobs Redis loses can be published again (docs/POSTGRES.md#the-outbox).
CREATE TABLE job_outbox (
    position      bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    job_id        text        NOT NULL,
    queue         text        NOT NULL,
    type          text,
    payload       text        NOT NULL,
    headers       jsonb       NOT NULL DEFAULT '{}',
    due_at        timestamptz,
    enqueued_at   timestamptz NOT NULL DEFAULT now(),
    -- a relay's claim: no other relay takes the row before this time
    claimed_until timestamptz,
    published_at  timestamptz,
    -- why the relay refused to publish the row (it is dead-lettered MALFORMED with this reason)
    malformed     text
);

-- the relay's claim: the oldest rows not yet published
CREATE INDEX job_outbox_waiting_idx ON job_outbox (position) WHERE published_at IS NULL AND malformed IS NULL;
-- forgetting rows whose job ended, and republishing the ones Redis lost
CREATE INDEX job_outbox_job_id_idx ON job_outbox (job_id);

-- Wakes the relays listening on '<schema>_outbox'; PostgreSQL delivers it at the commit, never for a rollback.
CREATE FUNCTION job_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify(TG_TABLE_SCHEMA || '_outbox', '');
    RETURN NULL;
END
$$;

CREATE TRIGGER job_outbox_inserted AFTER INSERT ON job_outbox
    FOR EACH STATEMENT EXECUTE FUNCTION job_outbox_notify();

-- enqueue(queue, job_id, payload [, type, due_at, headers]): puts a job in the outbox inside the caller's transaction,
-- for any language. Bad input raises an error (SQLSTATE 22023, or 54000 for a payload over 1 MiB) that the caller
-- may still roll back. Returns the row's position. The checks are the Java enqueue's (QueueName, JobId, Job).
CREATE FUNCTION enqueue(queue text, job_id text, payload text, type text DEFAULT NULL,
                        due_at timestamptz DEFAULT NULL, headers jsonb DEFAULT '{}')
    RETURNS bigint LANGUAGE plpgsql
    -- the schema the function lives in, whatever the caller's search_path
    SET search_path FROM CURRENT AS $$
DECLARE
    max_payload_bytes CONSTANT integer := 1048576;
    position bigint;
BEGIN
    IF queue IS NULL OR queue !~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$' THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('queue name %L is invalid: use 1..100 letters, '
            || 'digits, ''.'', ''_'' or ''-'', starting with a letter or digit', left(queue, 120));
    END IF;
    IF job_id IS NULL OR length(job_id) NOT BETWEEN 1 AND 256 OR job_id ~ '[[:cntrl:]]' THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('job id %L is invalid: it must have 1..256 '
            || 'printable characters without control characters', left(job_id, 120));
    END IF;
    IF payload IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'payload is required (use '''' for none)';
    END IF;
    IF octet_length(payload) > max_payload_bytes THEN
        RAISE EXCEPTION USING ERRCODE = '54000', MESSAGE = format('payload has %s bytes, more than the limit of %s',
            octet_length(payload), max_payload_bytes);
    END IF;
    IF type IS NOT NULL AND (length(btrim(type)) = 0 OR length(type) > 200 OR type ~ '[[:cntrl:]]') THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'job type must be 1..200 printable characters';
    END IF;
    IF headers IS NULL OR jsonb_typeof(headers) <> 'object'
            OR EXISTS (SELECT FROM jsonb_each(headers) AS h WHERE jsonb_typeof(h.value) <> 'string') THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'headers must be a JSON object of strings';
    END IF;
    INSERT INTO job_outbox (job_id, queue, type, payload, headers, due_at)
        VALUES (enqueue.job_id, enqueue.queue, enqueue.type, enqueue.payload, enqueue.headers, enqueue.due_at)
        RETURNING job_outbox.position INTO position;
    RETURN position;
END
$$;

-- The transport's epoch the relays last saw (TransportMemory): when it changes, Redis may have lost jobs, and the
-- published rows whose jobs have no terminal outcome are published again. One row.
CREATE TABLE job_outbox_epoch (
    only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    epoch    text
);
INSERT INTO job_outbox_epoch DEFAULT VALUES;
