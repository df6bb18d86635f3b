#!/usr/bin/env bash
# The outbox's transactional enqueue beside PostgreSQL's own single-row insert transaction, on the same servers in
# one run: `baton bench` runs jobs paced at R jobs/s straight to Redis (exactly-once, the direct path); pgbench runs a
# custom script inserting one row into a plain table shaped like job_outbox (same columns and indexes, no trigger:
# the insert a producer would write for a row of its own) from P clients for S seconds; `baton bench --enqueue
# outbox` enqueues one job per transaction from P threads and 1,000 per transaction (its relay publishing them
# meanwhile), then runs the same paced jobs through the outbox and a relay with a worker running (commit-to-start
# latency); pgbench runs again. Prints the rates, Baton's ratio to pgbench's mean, both latencies side by side, and
# the load average before and after.
#
#   BATON_REDIS_URI=redis://127.0.0.1:6379 BATON_JDBC_URL='jdbc:postgresql://127.0.0.1:5432/test?user=postgres' \
#     docs/benchmarks/outbox-vs-pgbench.sh [clients=4] [seconds=20] [jobs=20000] [rate=1000]
#
# Needs the packaged jar (./mvnw -pl bootstrap -am package -DskipTests), psql and pgbench on the PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
clients="${1:-4}"
seconds="${2:-20}"
jobs="${3:-20000}"
rate="${4:-1000}"
: "${BATON_REDIS_URI:?set BATON_REDIS_URI}" "${BATON_JDBC_URL:?set BATON_JDBC_URL}"
export BATON_REDIS_URI BATON_JDBC_URL
psql_url="${BATON_JDBC_URL#jdbc:}"
schema="pgbench_outbox_$(date +%s)"
work="$(mktemp -d)"
trap 'psql -q "$psql_url" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
psql -q -v ON_ERROR_STOP=1 "$psql_url" >/dev/null <<SQL
CREATE SCHEMA $schema;
CREATE TABLE $schema.job_outbox (
    position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, job_id text NOT NULL, queue text NOT NULL, type text,
    payload text NOT NULL, headers jsonb NOT NULL DEFAULT '{}', due_at timestamptz,
    enqueued_at timestamptz NOT NULL DEFAULT now(), claimed_until timestamptz, published_at timestamptz,
    malformed text);
CREATE INDEX ON $schema.job_outbox (position) WHERE published_at IS NULL AND malformed IS NULL;
CREATE INDEX ON $schema.job_outbox (job_id);
CREATE INDEX ON $schema.job_outbox (position) WHERE malformed IS NOT NULL;
CREATE INDEX ON $schema.job_outbox (position) WHERE published_at IS NOT NULL;
SQL
cat >"$work/insert.sql" <<SQL
INSERT INTO $schema.job_outbox (job_id, queue, payload) VALUES ('pgbench-' || :client_id || '-' || random(), 'bench', '{}');
SQL
# this machine's commits drift by tens of percent within minutes: pgbench runs right before Baton's run and right
# after it, and the ratio is to the mean of the two
pgbench_tps() {
  pgbench -n -M prepared -c "$clients" -j "$clients" -T "$seconds" -f "$work/insert.sql" "$psql_url" \
    >"$work/pgbench.txt" 2>&1
  sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/pgbench.txt" | head -1
}

"$here/baton" bench --mode exactly-once --jobs "$jobs" --rate "$rate" --concurrency 16 --max-warmup 30 --json \
  2>/dev/null >"$work/direct.json"
pg_before="$(pgbench_tps)"
"$here/baton" bench --enqueue outbox --producers "$clients" --jobs "$jobs" --rate "$rate" --concurrency 16 --max-warmup 30 --json \
  2>/dev/null >"$work/baton.json"
pg_after="$(pgbench_tps)"
pg_tps="$(python3 -c "print('%.0f' % (($pg_before + $pg_after) / 2))")"
echo "pgbench single-row insert transaction, $clients clients: $pg_before tps before, $pg_after after (mean $pg_tps)"
read -r single bulk p50 p99 c50 c99 baton_load < <(python3 - "$work/baton.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
o = r["outbox_enqueue"]
print(o["one_per_tx_jobs_per_s"], o["bulk_1000_per_tx_jobs_per_s"], r["latency_ms"]["start_p50"],
      r["latency_ms"]["start_p99"], r["latency_ms"]["commit_to_start_p50"], r["latency_ms"]["commit_to_start_p99"],
      r["load_average"].replace(" ", "/"))
PY
)
echo "baton outbox, one job per transaction, $clients producers: $single jobs/s"
echo "baton outbox, 1000 jobs per transaction: $bulk jobs/s"
echo "baton outbox at $rate jobs/s with a worker: enqueue-to-start p50 ${p50} ms, p99 ${p99} ms;" \
  "commit-to-start p50 ${c50} ms, p99 ${c99} ms"
python3 - "$work/direct.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print("baton direct (XADD) at the same rate, exactly-once: enqueue-to-start p50 %s ms, p99 %s ms, processed %s jobs/s"
      % (r["latency_ms"]["start_p50"], r["latency_ms"]["start_p99"], r["process_jobs_per_s"]))
PY
python3 -c "print('ratio baton/pgbench (one per transaction): %.2f' % ($single / $pg_tps))"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) (baton's run ended at $baton_load)"
