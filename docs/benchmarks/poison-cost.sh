#!/usr/bin/env bash
# What a poison pill that keeps crashing workers costs in throughput: the same orders drained twice in one run, by
# the same fleet of worker processes, once clean and once with one order that halts its worker
# (--demo-crash-on-poison). Each worker runs under a supervisor loop that restarts it after a crash, as systemd or
# Kubernetes would. Prints, for both drains, the orders shipped per second between the first and the last shipment
# (their shipped_at in PostgreSQL: worker JVM start-ups before the first one do not count, restarts after crashes do)
# and the crashes the poison pill caused before it was dead-lettered.
#
#   BATON_REDIS_URI=redis://127.0.0.1:6379 BATON_JDBC_URL='jdbc:postgresql://127.0.0.1:5432/test?user=postgres' \
#     docs/benchmarks/poison-cost.sh [orders=3000] [workers=3] [concurrency=8]
#
# Needs the packaged jar (./mvnw -pl bootstrap -am package -DskipTests), psql and redis-cli on the PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
orders="${1:-3000}"
workers="${2:-3}"
concurrency="${3:-8}"
: "${BATON_REDIS_URI:?set BATON_REDIS_URI}" "${BATON_JDBC_URL:?set BATON_JDBC_URL}"
export BATON_REDIS_URI BATON_JDBC_URL BATON_ADMIN_ADDRESS=off BATON_CONCURRENCY="$concurrency"
export BATON_LEASE="${BATON_LEASE:-5s}" BATON_DELIVERY_LIMIT="${BATON_DELIVERY_LIMIT:-5}"
export BATON_JAVA_OPTS="${BATON_JAVA_OPTS:--Xmx256m -XX:+UseSerialGC}"
psql_url="${BATON_JDBC_URL#jdbc:}"
run_id="$(date +%s)"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# one drain: enqueue the orders (the poison one in the middle, when asked), start the fleet, time until every order
# shipped or was dead-lettered
drain() {
  local name="$1" poison="$2"
  local queue="poison-cost-$run_id-$name" schema="poison_cost_${run_id}_$name"
  export BATON_SCHEMA="$schema"
  "$here/baton" migrate >/dev/null
  for ((i = 0; i < orders; i++)); do
    if [ "$poison" = yes ] && [ "$i" = 100 ]; then
      echo "{\"job_id\":\"bomb\",\"payload\":{\"orderId\":\"bomb\",\"poison\":true}}"
    else
      echo "{\"job_id\":\"o-$i\",\"payload\":{\"orderId\":\"o-$i\",\"sleepMs\":5}}"
    fi
  done | "$here/baton" enqueue --queue "$queue" --file - >/dev/null
  local crashes="$work/$name.crashes"
  : >"$crashes"
  local pids=()
  for ((w = 0; w < workers; w++)); do
    (
      while true; do
        rc=0
        "$here/baton" worker --queue "$queue" --handler orders --consumer "w$w" --demo-crash-on-poison \
          >>"$work/$name-w$w.log" 2>&1 || rc=$?
        [ "$rc" = 86 ] || exit 0
        echo crash >>"$crashes"
      done
    ) &
    pids+=($!)
  done
  local expected=$orders
  [ "$poison" = yes ] && expected=$((orders - 1))
  while true; do
    shipped=$(psql -qtA "$psql_url" -c "select count(distinct job_id) from $schema.demo_shipments" 2>/dev/null || echo 0)
    dead=$(redis-cli -u "$BATON_REDIS_URI" xlen "baton:{$queue}:dead")
    [ "$shipped" -ge "$expected" ] && [ "$dead" -ge $((orders - expected)) ] && break
    sleep 0.2
  done
  for pid in "${pids[@]}"; do pkill -TERM -P "$pid" 2>/dev/null || true; done
  wait "${pids[@]}" 2>/dev/null || true
  local window
  window=$(psql -qtA "$psql_url" -c "select extract(epoch from max(shipped_at) - min(shipped_at)) from $schema.demo_shipments")
  awk -v n="$shipped" -v w="$window" -v name="$name" -v c="$(wc -l <"$crashes")" -v d="$dead" \
    'BEGIN { printf "%-8s shipped=%d seconds=%.1f jobs/s=%.0f crashes=%d dead=%d\n", name, n, w, n / w, c, d }'
  psql -qtA "$psql_url" -c "drop schema $schema cascade" >/dev/null 2>&1
  redis-cli -u "$BATON_REDIS_URI" del "baton:{$queue}:stream" "baton:{$queue}:dead" "baton:{$queue}:delayed" \
    "baton:{$queue}:isolated" >/dev/null
}

echo "workers=$workers concurrency=$concurrency lease=$BATON_LEASE delivery-limit=$BATON_DELIVERY_LIMIT"
drain clean no
drain poison yes
