-- enqueue(...) refuses two more things the Java enqueue refuses (docs/POSTGRES.md#the-outbox):
-- * a due time that is no time ('infinity', '-infinity') or more than 10 years (3653 days) ahead of now(): such a job
--   would wait in the delayed set for ever (DueHorizon);
-- * a header name that is not an RFC 7230 token of 1..128 characters: letters, digits and !#$%&'*+-.^_`|~ (Job).
-- The rest of the function is V8's.

-- An instant in UTC as ISO 8601, to the millisecond: 2036-12-01T10:00:00.123Z.
CREATE FUNCTION outbox_utc(instant timestamptz) RETURNS text LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$
    SELECT to_char(instant AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
$$;

CREATE OR REPLACE FUNCTION enqueue(queue text, job_id text, payload text, type text DEFAULT NULL,
                                   due_at timestamptz DEFAULT NULL, headers jsonb DEFAULT '{}')
    RETURNS bigint LANGUAGE plpgsql
    -- the schema the function lives in, whatever the caller's search_path
    SET search_path FROM CURRENT AS $$
DECLARE
    max_payload_bytes CONSTANT integer := 1048576;
    -- the stream entry's own fields (WireMapping), and the uniqueness key a relay cannot publish (Uniqueness)
    reserved_headers CONSTANT text[] := ARRAY['job_id', 'payload', 'attempt', 'type', 'enqueued_at',
        'last_error_type', 'last_error_message', 'last_error_retryable', 'dead_reason', 'dead_error_type',
        'dead_error_message', 'dead_error_retryable', 'dead_error_trace', 'dead_attempts', 'dead_at',
        'dead_original_id'];
    unique_header CONSTANT text := 'unique_key';
    max_due_ahead CONSTANT interval := interval '3653 days';
    max_header_name CONSTANT integer := 128;
    reserved text;
    bad_header text;
    position bigint;
BEGIN
    IF queue IS NULL OR queue !~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$' THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('queue name %L is invalid: use 1..100 letters, '
            || 'digits, ''.'', ''_'' or ''-'', starting with a letter or digit', left(queue, 120));
    END IF;
    IF job_id IS NULL OR outbox_utf16_length(job_id) NOT BETWEEN 1 AND 256 THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('job id %L is invalid: it must have 1..256 '
            || 'UTF-16 characters (one outside the Basic Multilingual Plane, such as an emoji, counts 2), got %s',
            left(job_id, 120), coalesce(outbox_utf16_length(job_id), 0));
    END IF;
    IF NOT outbox_printable(job_id) THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('job id %L is invalid: it holds a control '
            || 'character or an unassigned code point', left(job_id, 120));
    END IF;
    IF payload IS NULL THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'payload is required (use '''' for none)';
    END IF;
    IF octet_length(payload) > max_payload_bytes THEN
        RAISE EXCEPTION USING ERRCODE = '54000', MESSAGE = format('payload has %s bytes, more than the limit of %s',
            octet_length(payload), max_payload_bytes);
    END IF;
    -- blank as Java's String.isBlank: white space only (control characters are refused as unprintable anyway)
    IF type IS NOT NULL AND (type ~ '^[\u0020\u1680\u2000-\u2006\u2008-\u200A\u2028\u2029\u205F\u3000]*$'
            OR outbox_utf16_length(type) > 200 OR NOT outbox_printable(type)) THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'job type must be 1..200 printable characters';
    END IF;
    IF headers IS NULL OR jsonb_typeof(headers) <> 'object'
            OR EXISTS (SELECT FROM jsonb_each(headers) AS h WHERE jsonb_typeof(h.value) <> 'string') THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = 'headers must be a JSON object of strings';
    END IF;
    SELECT name INTO bad_header FROM jsonb_object_keys(headers) AS name
        WHERE name !~ ('^[A-Za-z0-9!#$%&''*+.^_`|~-]{1,' || max_header_name || '}$') ORDER BY name LIMIT 1;
    IF bad_header IS NOT NULL THEN
        -- shown as a JSON string: a control character in it is escaped, never written raw into a log
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('header name %s is invalid: use 1..%s letters, '
            || 'digits or !#$%%&''*+-.^_`|~ (an RFC 7230 token)', left(to_json(bad_header)::text, 120),
            max_header_name);
    END IF;
    SELECT name INTO reserved FROM jsonb_object_keys(headers) AS name WHERE name = ANY (reserved_headers)
        ORDER BY name LIMIT 1;
    IF reserved IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('header %L is a field of Baton''s wire protocol',
            left(reserved, 120));
    END IF;
    IF headers ? unique_header THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('header %L is reserved for a uniqueness key, '
            || 'which a job enqueued through the outbox cannot hold', unique_header);
    END IF;
    IF due_at IS NOT NULL AND NOT isfinite(due_at) THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('due_at %s is no time: give one at most 10 years '
            || '(3653 days) ahead, or NULL for now', due_at);
    END IF;
    IF due_at > now() + max_due_ahead THEN
        RAISE EXCEPTION USING ERRCODE = '22023', MESSAGE = format('due time %s is more than 10 years (3653 days) '
            || 'ahead: the latest allowed now is %s', outbox_utc(due_at), outbox_utc(now() + max_due_ahead));
    END IF;
    INSERT INTO job_outbox (job_id, queue, type, payload, headers, due_at)
        VALUES (enqueue.job_id, enqueue.queue, enqueue.type, enqueue.payload, enqueue.headers, enqueue.due_at)
        RETURNING job_outbox.position INTO position;
    RETURN position;
END
$$;
