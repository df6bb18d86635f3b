-- A handler's own table, shipped as an extra migration location. Deliberately WITHOUT a unique constraint: only the
-- ledger keeps a redelivered job from shipping twice.
CREATE TABLE demo_shipments (
    order_id   text        NOT NULL,
    job_id     text        NOT NULL,
    shipped_at timestamptz NOT NULL
);

-- Lets a test hold a transaction inside its COMMIT: a shipment of order 'hold-commit' waits, when the transaction
-- commits, for an advisory lock that the test holds (keyed by this schema, so parallel test runs do not meet).
CREATE FUNCTION demo_hold_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext(TG_TABLE_SCHEMA));
    RETURN NULL;
END
$$;

CREATE CONSTRAINT TRIGGER demo_hold_commit AFTER INSERT ON demo_shipments
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.order_id = 'hold-commit')
    EXECUTE FUNCTION demo_hold_commit();

-- Lets a test fail a transaction at commit like a deferred constraint would: a shipment of order 'reject-at-commit'
-- raises a check violation when its transaction commits.
CREATE FUNCTION demo_reject_at_commit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'order % cannot ship', NEW.order_id USING ERRCODE = 'check_violation';
END
$$;

CREATE CONSTRAINT TRIGGER demo_reject_at_commit AFTER INSERT ON demo_shipments
    DEFERRABLE INITIALLY DEFERRED
    FOR EACH ROW WHEN (NEW.order_id = 'reject-at-commit')
    EXECUTE FUNCTION demo_reject_at_commit();
