CREATE TABLE shop_shipments (
    order_id   text        NOT NULL,
    job_id     text        NOT NULL UNIQUE,
    carrier    text        NOT NULL,
    shipped_at timestamptz NOT NULL DEFAULT now()
);
