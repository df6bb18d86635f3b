-- Tables of Baton's demo handlers (dev.baton.bootstrap.demo). Repeatable and idempotent, so they can ship with
-- every ledger schema without competing with the ledger's own versioned migrations.

-- Deliberately no unique constraint: an effect that ran twice would show as two rows of one job_id.
create table if not exists demo_shipments (
    order_id   text        not null,
    job_id     text        not null,
    shipped_at timestamptz not null
);

create table if not exists demo_chunks (
    job_id text    not null,
    seq    integer not null,
    text   text    not null,
    primary key (job_id, seq)
);
