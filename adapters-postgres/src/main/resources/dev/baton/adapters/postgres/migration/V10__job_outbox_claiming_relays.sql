-- A producer's commit wakes the relays only when none is claiming (docs/POSTGRES.md#the-outbox). PostgreSQL serializes
-- the commits of transactions that sent a NOTIFY, flush included, so one NOTIFY per commit halved the rate of
-- one-job transactions; a relay that is claiming claims again until a claim finds nothing, and needs no wake-up.

-- Relays that are claiming, each until its mark lapses (a relay that died stops counting then). Unlogged: after a
-- crash it is empty, and every commit wakes the relays again.
CREATE UNLOGGED TABLE job_outbox_claiming (
    relay text        PRIMARY KEY,
    until timestamptz NOT NULL
);

-- Runs once per transaction, at its commit (a deferred trigger of the first row it inserted): the decision is made
-- as the rows are about to become visible, however long the transaction ran. The shared advisory lock (class
-- 1650553966, 'batn', and the schema), held until the commit ended, is what job_outbox_stop_claiming waits for.
CREATE OR REPLACE FUNCTION job_outbox_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF current_setting('baton.outbox_woken', true) IS DISTINCT FROM TG_TABLE_SCHEMA THEN
        PERFORM set_config('baton.outbox_woken', TG_TABLE_SCHEMA, true);
        PERFORM pg_advisory_xact_lock_shared(1650553966, hashtext('${flyway:defaultSchema}'));
        IF NOT EXISTS (SELECT FROM "${flyway:defaultSchema}".job_outbox_claiming WHERE until > clock_timestamp()) THEN
            PERFORM pg_notify(TG_TABLE_SCHEMA || '_outbox', '');
        END IF;
    END IF;
    RETURN NULL;
END
$$;

-- A relay stops claiming: its mark goes, then it waits for every commit that is deciding or found it claiming, so
-- that the claim it sends next in this transaction sees their rows; a commit after this one finds no mark and wakes
-- the relays. The caller commits (or rolls back) soon: commits wait for the lock meanwhile, so this transaction's
-- commit does not wait for the WAL flush. Losing it in a crash loses nothing: the mark is unlogged, and the claim's
-- rows wait again, to be published again (a duplicate the ledger acknowledges).
CREATE FUNCTION job_outbox_stop_claiming(relay text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM "${flyway:defaultSchema}".job_outbox_claiming c WHERE c.relay = job_outbox_stop_claiming.relay;
    PERFORM pg_advisory_xact_lock(1650553966, hashtext('${flyway:defaultSchema}'));
    PERFORM set_config('synchronous_commit', 'off', true);
END
$$;

DROP TRIGGER job_outbox_inserted ON job_outbox;
CREATE CONSTRAINT TRIGGER job_outbox_committed AFTER INSERT ON job_outbox
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION job_outbox_notify();
