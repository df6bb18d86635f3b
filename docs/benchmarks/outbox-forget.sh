#!/usr/bin/env bash
# The relay's forget statement on a job_outbox like a busy bench's, before and after V9__job_outbox_published_idx.sql:
# the join of job_outbox and job_outcomes (LIMIT 500) against the window of 500 published rows that PostgresJobOutbox
# runs now, each with the plan PostgreSQL keeps for a prepared statement (force_generic_plan), EXPLAIN ANALYZE in a
# transaction rolled back (docs/BENCHMARKS.md#the-outbox).
#
#   docs/benchmarks/outbox-forget.sh 'postgresql://postgres@127.0.0.1:5432/test' [outcomes=100000] [outbox=70000]
#
# Works in a throwaway schema of its own (dropped at the end).
set -euo pipefail
url=${1:?usage: outbox-forget.sh POSTGRES_URL [outcomes] [outbox]}
outcomes=${2:-100000}
outbox=${3:-70000}
here=$(cd "$(dirname "$0")" && pwd)
migrations="$here/../../adapters-postgres/src/main/resources/dev/baton/adapters/postgres/migration"
schema="bench_forget_$$"
psql_in_schema() { PGOPTIONS="-c search_path=$schema,public" psql "$url" -X -q -v ON_ERROR_STOP=1 "$@"; }

psql "$url" -X -q -v ON_ERROR_STOP=1 -c "CREATE SCHEMA $schema"
trap 'psql "$url" -X -q -c "SET client_min_messages = warning; DROP SCHEMA $schema CASCADE"' EXIT
for m in V1__job_completions V2__job_outcomes V4__job_outbox V5__cancelled_jobs V6__outcome_search \
         V7__job_outbox_malformed_idx V8__enqueue_checks_as_java; do
  psql_in_schema -f "$migrations/$m.sql" 2>/dev/null
done

# every outcome completed; of the outbox rows, 93 % published with an outcome, 3 % published and running, 4 % waiting
psql_in_schema <<SQL
ALTER TABLE job_outbox SET (autovacuum_enabled = false);
INSERT INTO job_outcomes (job_id, queue, attempt, consumer, message_id, completed_at)
  SELECT 'job-' || g, 'bench', 1, 'w', g || '-0', now() FROM generate_series(1, $outcomes) g;
INSERT INTO job_outbox (job_id, queue, payload, published_at)
  SELECT CASE WHEN g % 100 < 93 THEN 'job-' || ($outcomes - $outbox + g) ELSE 'running-' || g END, 'bench', '{}',
         CASE WHEN g % 100 < 96 THEN now() END
  FROM generate_series(1, $outbox) g;
ANALYZE job_outcomes;
ANALYZE job_outbox;
SQL

join="DELETE FROM job_outbox WHERE position IN (SELECT o.position FROM job_outbox o JOIN job_outcomes r USING (job_id)
  WHERE o.published_at IS NOT NULL AND r.state IN ('completed', 'dead', 'purged') LIMIT \$1)"
window="WITH window_rows AS (SELECT o.position, (SELECT r.state FROM job_outcomes r WHERE r.job_id = o.job_id)
  IN ('completed', 'dead', 'purged') AS ended FROM job_outbox o WHERE o.published_at IS NOT NULL AND o.position > \$1
  ORDER BY o.position LIMIT \$2), forgotten AS (DELETE FROM job_outbox WHERE position = ANY(ARRAY(SELECT position
  FROM window_rows WHERE ended)) AND published_at IS NOT NULL RETURNING 1) SELECT (SELECT count(*) FROM forgotten)"
timed() { # statement (prepared as s), arguments: the execution time of EXPLAIN ANALYZE, rolled back
  psql_in_schema -At <<SQL | sed -n 's/^Execution Time: \(.*\)$/\1/p'
SET plan_cache_mode = force_generic_plan;
PREPARE s AS $1;
BEGIN;
EXPLAIN (ANALYZE, COSTS OFF) EXECUTE s($2);
ROLLBACK;
SQL
}
echo "| statement | outbox rows / outcomes | execution time |"
echo "|---|---|---|"
for round in 1 2; do
  echo "| the join, LIMIT 500 (before V9) | $outbox / $outcomes | $(timed "$join" 500) |"
done
psql_in_schema -f "$migrations/V9__job_outbox_published_idx.sql" -c "ANALYZE job_outbox"
for round in 1 2; do
  echo "| the window of 500 published rows (V9) | $outbox / $outcomes | $(timed "$window" "0, 500") |"
done
