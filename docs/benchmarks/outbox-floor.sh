#!/usr/bin/env bash
# How fast producers can insert one row per transaction into an outbox while something drains it, on the same
# servers, alternating and repeated. Every variant runs pgbench's single-row insert transaction (`-M prepared`,
# `clients` clients, a single-row insert like a Java enqueue's) for `seconds`; only what else runs differs:
#   plain           a table shaped like job_outbox without its trigger, nothing else: the issue's reference rate
#   plain+drain     the same table while one pgbench client deletes it 100 rows at a time: the least any relay
#                   could do to the rows it takes, with no Redis and no JVM
#   outbox          Baton's job_outbox with its wake-up trigger, a relay marked claiming (so commits send no NOTIFY,
#                   as under load), nothing draining
#   outbox+claims   the same while one pgbench client runs the relay's claim-and-mark statement in a loop: the
#                   relay's database work, with no Redis and no JVM
#   outbox+relay    the same table while `baton relay` publishes its rows to Redis, after producers ran for
#                   `warmup` seconds beside it (a relay runs for hours: its JIT compiles for the first tens of seconds)
# Prints each variant's median transactions/s over the rounds, its ratio to plain's, and the load average.
#
#   docs/benchmarks/outbox-floor.sh [rounds=3] [seconds=10] [clients=4] [warmup=30]
#
# Servers: BATON_REDIS_URI and BATON_JDBC_URL, by default the local redis://127.0.0.1:6379 and
# jdbc:postgresql://127.0.0.1:5432/test?user=postgres. Needs the packaged jar
# (./mvnw -B -q -pl bootstrap -am package -DskipTests), psql, pgbench, redis-cli and python3 on the PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rounds="${1:-3}"
seconds="${2:-10}"
clients="${3:-4}"
warmup="${4:-30}"
export BATON_REDIS_URI="${BATON_REDIS_URI:-redis://127.0.0.1:6379}"
export BATON_JDBC_URL="${BATON_JDBC_URL:-jdbc:postgresql://127.0.0.1:5432/test?user=postgres}"
export BATON_ADMIN_ADDRESS=off

# shellcheck source=requires.sh
source "$here/docs/benchmarks/requires.sh"
requires outbox-floor.sh "postgresql-client redis-tools python3" pgbench psql redis-cli python3

psql_url="${BATON_JDBC_URL#jdbc:}"
run="outbox_floor_$(date +%s)_$$"
work="$(mktemp -d)"
schema=""
beside=""
drop_run() {
  [ -z "$beside" ] || { kill "$beside" 2>/dev/null || true; wait "$beside" 2>/dev/null || true; beside=""; }
  [ -z "$schema" ] || psql -q "$psql_url" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
  redis-cli -u "$BATON_REDIS_URI" --scan --pattern "baton:{$run-*" | while read -r key; do
    redis-cli -u "$BATON_REDIS_URI" del "$key" >/dev/null
  done
}
trap 'drop_run; rm -rf "$work"' EXIT

# a fresh schema with Baton's migrations for each run, so that no run inherits another's dead rows
fresh_schema() {
  schema="${run}_$1"
  BATON_SCHEMA="$schema" "$here/baton" migrate >"$work/migrate.txt" 2>&1 || { cat "$work/migrate.txt" >&2; exit 1; }
}

insert_script() {
  echo "INSERT INTO $schema.job_outbox (job_id, queue, payload) VALUES ('floor-' || :client_id || '-' || random()," \
    "'$run-$1', '{}');" >"$work/insert.sql"
}

# PostgresJobOutbox's claim: marks the rows the last claim took published (by their range: pgbench keeps no arrays
# between transactions) and claims the next 100, returning what the relay publishes
beside_scripts() {
  cat >"$work/claims.sql" <<SQL
WITH published AS (UPDATE $schema.job_outbox SET published_at = now(), claimed_until = NULL WHERE position BETWEEN :lo AND :hi AND published_at IS NULL), claimed AS (UPDATE $schema.job_outbox o SET claimed_until = now() + interval '30 seconds' FROM (SELECT position FROM $schema.job_outbox WHERE published_at IS NULL AND malformed IS NULL AND (claimed_until IS NULL OR claimed_until <= now()) AND position NOT BETWEEN :lo AND :hi ORDER BY position LIMIT 100 FOR UPDATE SKIP LOCKED) c WHERE o.position = c.position RETURNING o.position, o.job_id, o.queue, o.type, o.payload, o.due_at, o.enqueued_at, ARRAY(SELECT key FROM jsonb_each_text(o.headers) ORDER BY key) AS header_names, ARRAY(SELECT value FROM jsonb_each_text(o.headers) ORDER BY key) AS header_values) SELECT coalesce(min(position), 0) AS lo, coalesce(max(position), -1) AS hi FROM claimed \\gset
SQL
  cat >"$work/drain.sql" <<SQL
DELETE FROM $schema.job_outbox WHERE position IN (SELECT position FROM $schema.job_outbox ORDER BY position LIMIT 100 FOR UPDATE SKIP LOCKED) RETURNING position, job_id, queue, payload, headers;
SQL
}

# the producers: pgbench's single-row insert transaction from $clients clients for $1 seconds
producers() {
  pgbench -n -M prepared -c "$clients" -j "$clients" -T "$1" -f "$work/insert.sql" "$psql_url" \
    >"$work/producers.txt" 2>&1 || { cat "$work/producers.txt" >&2; exit 1; }
}

# starts what drains the outbox beside the producers, if anything, and waits until it runs
start_beside() {
  case "$1" in
    plain+drain) pgbench -n -M prepared -c 1 -j 1 -T "$((seconds + 2))" -f "$work/drain.sql" "$psql_url" \
      >"$work/beside.txt" 2>&1 & beside=$! ;;
    outbox+claims) pgbench -n -M prepared -c 1 -j 1 -T "$((seconds + 2))" -D lo=0 -D hi=-1 -f "$work/claims.sql" \
      "$psql_url" >"$work/beside.txt" 2>&1 & beside=$! ;;
    outbox+relay)
      BATON_SCHEMA="$schema" "$here/baton" relay >"$work/beside.txt" 2>&1 & beside=$!
      # the relay is up once it listens for commits (its JVM takes a few seconds to start)
      for _ in $(seq 1 100); do
        if psql -qAt "$psql_url" -c "SELECT 1 FROM pg_stat_activity WHERE query LIKE 'LISTEN $schema%'" | grep -q 1
        then break; fi
        sleep 0.1
      done
      producers "$warmup" ;;
  esac
}

measure() {
  local variant="$1"
  fresh_schema "$(echo "$variant" | tr -c 'a-z\n' '_')"
  case "$variant" in
    plain*) psql -q "$psql_url" -c "DROP TRIGGER job_outbox_committed ON $schema.job_outbox" ;;
    outbox|outbox+claims) psql -q "$psql_url" -c "INSERT INTO $schema.job_outbox_claiming VALUES ('floor',
      clock_timestamp() + interval '1 hour')" ;;
  esac
  insert_script "$(echo "$variant" | tr -c 'a-z\n' '-')"
  beside_scripts
  start_beside "$variant"
  producers "$seconds"
  echo "$variant $(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/producers.txt" | head -1)" >>"$work/results.txt"
  drop_run
  schema=""
}

variants=(plain plain+drain outbox outbox+claims outbox+relay)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  for variant in "${variants[@]}"; do
    measure "$variant"
  done
  echo "round $round: $(tail -n "${#variants[@]}" "$work/results.txt" | awk '{printf "%s %.0f  ", $1, $2}')"
done
python3 - "$work/results.txt" "${variants[@]}" <<'PY'
import statistics, sys
rates = {}
for line in open(sys.argv[1]):
    variant, tps = line.split()
    rates.setdefault(variant, []).append(float(tps))
plain = statistics.median(rates["plain"])
for variant in sys.argv[2:]:
    median = statistics.median(rates[variant])
    print("%-14s %8.0f tps (median)  %.2fx plain" % (variant, median, median / plain))
PY
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
