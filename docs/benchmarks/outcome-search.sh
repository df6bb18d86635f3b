#!/usr/bin/env bash
# The ledger search on a million synthetic job_outcomes rows, before and after V6__outcome_search.sql: EXPLAIN ANALYZE
# of one page of each search the admin API makes, printed as a Markdown table (docs/OPERATIONS.md#searching-the-ledger).
#
#   docs/benchmarks/outcome-search.sh 'postgresql://postgres@127.0.0.1:5432/test' [rows]
#
# Works in a throwaway schema of its own (dropped at the end). The trigram index needs pg_trgm, which the migration
# never installs: this script installs it into public if the database has it nowhere (and leaves it there).
set -euo pipefail
url=${1:?usage: outcome-search.sh POSTGRES_URL [rows]}
rows=${2:-1000000}
here=$(cd "$(dirname "$0")" && pwd)
migrations="$here/../../adapters-postgres/src/main/resources/dev/baton/adapters/postgres/migration"
schema="bench_search_$$"
psql_in_schema() { PGOPTIONS="-c search_path=$schema,public" psql "$url" -X -q -v ON_ERROR_STOP=1 "$@"; }

psql "$url" -X -q -v ON_ERROR_STOP=1 -c "CREATE SCHEMA $schema"
psql "$url" -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public"
trap 'psql "$url" -X -q -c "DROP SCHEMA $schema CASCADE"' EXIT
psql_in_schema -f "$migrations/V1__job_completions.sql" -f "$migrations/V2__job_outcomes.sql"

# 10 queues (orders holds 40%), over the last 24 hours; 90% completed, 8% dead, 1% replayed, 1% purged; dead rows carry
# one of a few error messages with a number, and 0.1% of all rows (dead ones) 'certificate expired' (a rare text)
psql_in_schema <<SQL
INSERT INTO job_outcomes (job_id, queue, type, attempt, consumer, message_id, result, completed_at, state, reason,
                          error_type, error_message, dead_at, state_changed_at)
SELECT 'job-' || i,
       CASE WHEN i % 10 < 4 THEN 'orders' ELSE 'queue-' || (i % 10) END,
       'type', 1, 'worker-1', '1-' || i, NULL,
       CASE WHEN s = 'completed' THEN at END,
       s,
       CASE WHEN s <> 'completed' THEN (ARRAY['EXHAUSTED', 'NON_RETRYABLE', 'POISON'])[1 + i % 3] END,
       CASE WHEN s <> 'completed' THEN 'java.io.IOException' END,
       CASE WHEN s = 'completed' THEN NULL
            WHEN i % 1000 = 93 THEN 'TLS handshake failed: certificate expired on host ' || (i % 97)
            ELSE (ARRAY['connection reset by peer after ', 'read timed out after ', 'HTTP 503 from shipping, try '])[1 + i % 3]
                 || (i % 5000) || ' ms' END,
       CASE WHEN s <> 'completed' THEN at END,
       CASE WHEN s <> 'completed' THEN at END
FROM (SELECT i, now() - (i::bigint * 86400000 / $rows) * interval '1 millisecond' AS at,
             CASE WHEN i % 100 < 90 THEN 'completed' WHEN i % 100 < 98 THEN 'dead'
                  WHEN i % 100 = 98 THEN 'replayed' ELSE 'purged' END AS s
      FROM generate_series(1, $rows) AS i) AS g;
ANALYZE job_outcomes;
SQL

at="COALESCE(completed_at, state_changed_at)"
key='job_id COLLATE "C"'
page="ORDER BY $at DESC, $key DESC LIMIT 51"
declare -a names=(
  "newest outcomes of a queue"
  "dead of a queue, by reason"
  "one hour of a queue's outcomes"
  "error text, rare ('certificate expired')"
  "error text, common ('timed out')"
  "dead of a queue, a page 20 hours back (cursor)"
  "completed in the last hour (count)")
declare -a queries=(
  "SELECT * FROM job_outcomes WHERE queue = 'orders' $page"
  "SELECT * FROM job_outcomes WHERE queue = 'orders' AND state = 'dead' AND reason = 'POISON' $page"
  "SELECT * FROM job_outcomes WHERE queue = 'orders' AND $at >= now() - interval '13 hours' AND $at < now() - interval '12 hours' $page"
  "SELECT * FROM job_outcomes WHERE queue = 'orders' AND error_message ILIKE '%certificate expired%' $page"
  "SELECT * FROM job_outcomes WHERE queue = 'orders' AND error_message ILIKE '%timed out%' $page"
  "SELECT * FROM job_outcomes WHERE queue = 'orders' AND state = 'dead' AND ($at, $key) < (now() - interval '20 hours', 'job-5') $page"
  "SELECT count(*) FROM job_outcomes WHERE queue = 'orders' AND state = 'completed' AND $at >= now() - interval '1 hour'")

measure() { # the median execution time of three runs, in ms
  for _ in 1 2 3; do
    psql_in_schema -At -c "EXPLAIN (ANALYZE, FORMAT JSON) $1" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["Execution Time"])'
  done | sort -n | sed -n 2p
}

declare -a before after
for i in "${!queries[@]}"; do before[i]=$(measure "${queries[i]}"); done
psql_in_schema -f "$migrations/V6__outcome_search.sql" -c "ANALYZE job_outcomes"
for i in "${!queries[@]}"; do after[i]=$(measure "${queries[i]}"); done

echo "| search ($rows rows) | before V6 (ms) | after V6 (ms) |"
echo "|---|---:|---:|"
for i in "${!queries[@]}"; do printf '| %s | %.1f | %.1f |\n' "${names[i]}" "${before[i]}" "${after[i]}"; done
