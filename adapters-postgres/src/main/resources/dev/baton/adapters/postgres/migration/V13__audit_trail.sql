-- The audit trail (AuditTrail, docs/OPERATIONS.md#the-audit-trail): one row per change asked of the admin server,
-- done or refused. The id grows with each row and pages the trail newest first; the janitor deletes the rows older
-- than BATON_AUDIT_RETENTION by their time.
CREATE TABLE audit_trail (
    id         bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at         timestamptz NOT NULL,
    -- the admin user (viewer, operator); null without passwords
    admin_user text,
    client     text        NOT NULL,
    method     text        NOT NULL,
    path       text        NOT NULL,
    queue      text,
    action     text        NOT NULL,
    summary    text        NOT NULL,
    -- how many jobs, dead letters or queues the change affected, when its handler said
    affected   bigint      CHECK (affected >= 0),
    status     integer     NOT NULL CHECK (status BETWEEN 100 AND 599)
);

CREATE INDEX audit_trail_at_idx ON audit_trail (at);
