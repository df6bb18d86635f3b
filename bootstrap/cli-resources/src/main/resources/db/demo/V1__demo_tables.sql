-- Tables of Baton's demo handlers (dev.baton.bootstrap.demo), applied after the ledger's migrations into the Baton
-- schema with a history table of their own.

-- Deliberately no unique constraint: an effect that ran twice would show as two rows of one job_id.
CREATE TABLE demo_shipments (
    order_id   text        NOT NULL,
    job_id     text        NOT NULL,
    shipped_at timestamptz NOT NULL
);

CREATE TABLE demo_chunks (
    job_id text    NOT NULL,
    seq    integer NOT NULL,
    text   text    NOT NULL,
    PRIMARY KEY (job_id, seq)
);
