CREATE TABLE invoices (
    order_id text   NOT NULL,
    cents    bigint NOT NULL,
    job_id   text   NOT NULL UNIQUE
);
