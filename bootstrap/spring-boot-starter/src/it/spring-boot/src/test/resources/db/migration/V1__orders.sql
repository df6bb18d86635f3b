CREATE TABLE orders (
    order_id text   PRIMARY KEY,
    cents    bigint NOT NULL
);

CREATE TABLE invoices (
    order_id text NOT NULL,
    job_id   text NOT NULL UNIQUE
);
