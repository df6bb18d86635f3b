#!/usr/bin/env bash
# Baton beside pgbench on the same servers, alternating and repeated, so that anyone can reproduce the comparison.
# Each round runs, for 16, 32 and 64 clients, pgbench on the statements of an `orders` job (the handler's insert and
# the ledger's completion insert, verbatim, in one transaction, into a throwaway schema created with Baton's own
# migrations), then the same two statements from a bare JVM client (JdbcFloor.java: a thread and a connection per
# client, Baton's driver, the completion sent with the COMMIT as Baton sends it; no Redis, no hand-overs; on the
# runtime `baton` runs on, JAVA_HOME, with virtual threads from Java 24 on as Baton's single commits), the same client
# leasing its jobs from a Redis stream 5 at a time and acknowledging them in the next lease's round trip (the stream
# floor: what a worker that does nothing but lease, run and acknowledge pays), and then
# `baton bench --mode exactly-once --handler orders` at the same concurrency (one transaction per job); then
# exactly-once with --batch-commit 16 and 64 at concurrency 32, 64 and 128, and at-least-once `noop` at 64. Prints
# the median of the rounds in jobs/s (pgbench: transactions/s, one per job), the ratio to pgbench at the same client
# count and to pgbench's best, a batch's ratio to one transaction per job at the same concurrency, one transaction per
# job's ratio to both floors (which bound it: Baton sends the same statements and leases and acknowledges besides),
# where the CPU went per job (PostgreSQL's processes and Redis over the whole run, warm-up included; the client:
# pgbench's process, or Baton's JVM in its measured phase), how many commits shared a WAL flush (PostgreSQL's group
# commit: the fewer transactions a client keeps open at once, the fewer share a flush and the more CPU each commit
# costs the server), and the load average before and after. PostgreSQL's
# max_connections (100 by default) keeps pgbench below 128 clients: read concurrency 128 against pgbench's best.
#
#   docs/benchmarks/compare.sh [rounds=3] [pgbench-seconds=6] [jobs=15000] [warmup-seconds=40]
#
# Every `baton bench` run warms up for at most warmup-seconds (its --max-warmup): a worker that runs for hours is
# warm, and on two cores the JIT still compiles long after 10 s (BENCHMARKS.md, "Reproducing the comparison").
#
# Servers: BATON_REDIS_URI and BATON_JDBC_URL, by default the local redis://127.0.0.1:6379 and
# jdbc:postgresql://127.0.0.1:5432/test?user=postgres. Needs the packaged jar
# (./mvnw -B -q -pl bootstrap/cli -am package -DskipTests), psql, pgbench and python3 on the PATH.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
rounds="${1:-3}"
seconds="${2:-6}"
jobs="${3:-15000}"
warmup="${4:-40}"
export BATON_REDIS_URI="${BATON_REDIS_URI:-redis://127.0.0.1:6379}"
export BATON_JDBC_URL="${BATON_JDBC_URL:-jdbc:postgresql://127.0.0.1:5432/test?user=postgres}"
export BATON_ADMIN_ADDRESS=off

# shellcheck source=requires.sh
source "$here/docs/benchmarks/requires.sh"
requires compare.sh "postgresql-client python3" pgbench psql python3

psql_url="${BATON_JDBC_URL#jdbc:}"
schema="baton_compare_$(date +%s)_$$"
work="$(mktemp -d)"
trap 'psql -q "$psql_url" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT

# the tables a bench run writes, with their indexes, exactly as Baton creates them
BATON_SCHEMA="$schema" BATON_MIGRATIONS=classpath:db/demo "$here/baton" migrate >"$work/migrate.txt" 2>&1 \
  || { cat "$work/migrate.txt" >&2; exit 1; }
# OrdersHandler's insert, then RunThenComplete's completion insert (CompletionTable.ROW_COLUMNS + result), with the
# values a bench job binds
cat >"$work/job.sql" <<SQL
\set k random(1, 1000000000)
BEGIN;
insert into $schema.demo_shipments (order_id, job_id, shipped_at) values ('bench', 'bench-1764480000000-' || :client_id || '-' || :k, now());
INSERT INTO $schema.job_outcomes AS o (job_id, queue, type, attempt, consumer, message_id, completed_at, result) VALUES ('bench-1764480000000-' || :client_id || '-' || :k || '-' || random(), 'bench-1764480000000', NULL, 1, 'bench-host-1234-abcd', '1764480000000-' || :k, now(), 'shipped bench') ON CONFLICT (job_id, queue) DO UPDATE SET state = CASE WHEN o.state = 'replayed' THEN 'completed' ELSE 'ended before' END, type = EXCLUDED.type, attempt = EXCLUDED.attempt, consumer = EXCLUDED.consumer, message_id = EXCLUDED.message_id, result = EXCLUDED.result, completed_at = EXCLUDED.completed_at;
COMMIT;
SQL

# CPU seconds so far of PostgreSQL (its processes, plus the ended backends the postmaster reaped) and of Redis
cat >"$work/ticks.py" <<'PY'
import os
tick = os.sysconf("SC_CLK_TCK")
procs = {}
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        stat = open("/proc/%s/stat" % pid).read()
    except OSError:
        continue  # ended meanwhile
    fields = stat[stat.rindex(")") + 2:].split()
    procs[pid] = (stat[stat.index("(") + 1:stat.rindex(")")], fields[1], [int(f) for f in fields[11:15]])
pg = redis = 0
for pid, (name, parent, (utime, stime, cutime, cstime)) in procs.items():
    if name == "postgres":
        pg += utime + stime
        if procs.get(parent, ("",))[0] != "postgres":  # the postmaster: what its ended backends spent
            pg += cutime + cstime
    elif name == "redis-server":
        redis += utime + stime
print("%.3f %.3f" % (pg / tick, redis / tick))
PY
# then the database's commits and WAL flushes so far (the statistics a backend reports at least once a second)
ticks() {
  python3 "$work/ticks.py"
  psql -Atq "$psql_url" -F ' ' -c "SELECT xact_commit, (SELECT wal_sync FROM pg_stat_wal) FROM pg_stat_database
    WHERE datname = current_database()"
}

# one figure per line into $work/figures: label, round, jobs (or transactions) per second, CPU microseconds per job
# of the client (pgbench, or Baton's JVM in its measured phase), of PostgreSQL and of Redis, commits a WAL flush
record() {
  echo "$1 $2 $3 $4 $5 $6 $7" >>"$work/figures"
  printf '  round %s  %-28s %8s /s   CPU us/job: client %s, postgres %s, redis %s; commits a WAL flush %s\n' \
    "$2" "$1" "$3" "$4" "$5" "$6" "$7"
}

# µs per job of the servers between two ticks readings, over $3 jobs, and the commits a WAL flush between them
per_job() {
  python3 -c 'import sys; a, b, n = sys.argv[1].split(), sys.argv[2].split(), float(sys.argv[3]);
print("%.0f %.0f %.2f" % ((float(b[0]) - float(a[0])) * 1e6 / n, (float(b[1]) - float(a[1])) * 1e6 / n,
                          (int(b[2]) - int(a[2])) / max(1, int(b[3]) - int(a[3]))))' "$1" "$2" "$3"
}

pgbench_run() {
  local clients="$1" round="$2" threads=2
  [ "$clients" -lt "$threads" ] && threads="$clients"
  local before after done
  before="$(ticks)"
  /usr/bin/time -f "%U %S" -o "$work/time.txt" pgbench -n -M prepared -j "$threads" -c "$clients" -T "$seconds" \
    -f "$work/job.sql" "$psql_url" >"$work/pgbench.txt" 2>&1
  after="$(ticks)"
  done="$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' "$work/pgbench.txt")"
  record "pgbench:c$clients" "$round" "$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' "$work/pgbench.txt" | head -1 | cut -d. -f1)" \
    "$(python3 -c 'import sys; u, s = open(sys.argv[1]).read().split()[-2:]; print("%.0f" % ((float(u) + float(s)) * 1e6 / float(sys.argv[2])))' "$work/time.txt" "$done")" \
    $(per_job "$before" "$after" "$done")
}

# the floor runs on the runtime `baton` runs on (JAVA_HOME), on the threads Baton's single commits use there: virtual
# from Java 24 on (BATON_JOB_THREADS=auto), platform threads before
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
java_feature="$("$java" -XshowSettings:properties -version 2>&1 | awk -F'= ' '/java.specification.version/ {print $2}')"
floor_threads=""
[ "${java_feature%%.*}" -ge 24 ] && floor_threads=virtual

# jdbc_floor_run LABEL CLIENTS ROUND WARMUP-SECONDS [REDIS_URI LEASE]: JdbcFloor, with Redis leases when given
jdbc_floor_run() {
  local label="$1" clients="$2" round="$3" floor_warmup="$4" before after rate client all
  shift 4
  before="$(ticks)"
  read -r rate client all < <("$java" -Dfloor.warmup="$floor_warmup" -cp "$here/bootstrap/cli/target/baton.jar" \
    "$here/docs/benchmarks/JdbcFloor.java" "$BATON_JDBC_URL" "$schema" "$clients" "$seconds" $floor_threads "$@") || true
  [ -n "$rate" ] || { echo "compare.sh: JdbcFloor.java failed (its error is above)" >&2; exit 1; }
  after="$(ticks)"
  # the servers' CPU over the whole run, warm-up included (the same transactions), per transaction
  record "$label:c$clients" "$round" "$rate" "$client" $(per_job "$before" "$after" "$all")
}

baton_run() {
  local label="$1" round="$2"
  shift 2
  local before after
  before="$(ticks)"
  "$here/baton" bench --json --warmup 5000 --max-warmup "$warmup" "$@" 2>"$work/bench.err" >"$work/bench.json" || {
    echo "compare.sh: baton bench $* failed:" >&2
    cat "$work/bench.err" "$work/bench.json" >&2
    exit 1
  }
  after="$(ticks)"
  # the servers' CPU over the whole run, warm-up included (the same jobs), per job run
  read -r rate all client < <(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]));
print(r["process_jobs_per_s"], r["jobs"] + r["warmup_jobs"], "%.0f" % r["cpu_us_per_job"])' "$work/bench.json")
  record "$label" "$round" "$rate" "$client" $(per_job "$before" "$after" "$all")
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "load average before: $load_before ($(nproc) cores); $rounds rounds, pgbench ${seconds} s, $jobs jobs a run;" \
  "Java $java_feature, the floor on ${floor_threads:-platform} threads"
for ((round = 1; round <= rounds; round++)); do
  for clients in 16 32 64; do
    pgbench_run "$clients" "$round"
    jdbc_floor_run jdbc-floor "$clients" "$round" 3
    # leasing 5 entries a round trip: about the Redis calls a job Baton's worker makes at these concurrencies; its
    # warm-up as long as Baton's, since the Redis client's path takes the JIT that long
    jdbc_floor_run stream-floor "$clients" "$round" "$warmup" "$BATON_REDIS_URI" 5
    baton_run "exactly-once:c$clients" "$round" --mode exactly-once --handler orders --jobs "$jobs" \
      --concurrency "$clients"
  done
  for batch in 16 64; do
    for concurrency in 32 64 128; do
      baton_run "batch-$batch:c$concurrency" "$round" --mode exactly-once --handler orders --jobs $((jobs * 2)) \
        --concurrency "$concurrency" --batch-commit "$batch"
    done
  done
  baton_run "at-least-once-noop:c64" "$round" --jobs $((jobs * 4)) --concurrency 64
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$work/figures" <<'PY'
import statistics, sys
runs, cpu, flushes = {}, {}, {}
for line in open(sys.argv[1]):
    label, _, rate, client, pg, redis, flush = line.split()
    runs.setdefault(label, []).append(int(rate))
    cpu.setdefault(label, []).append((int(pg), int(redis), int(client)))
    flushes.setdefault(label, []).append(float(flush))
median = {label: statistics.median(rates) for label, rates in runs.items()}
pgbench = {label.split(":c")[1]: rate for label, rate in median.items() if label.startswith("pgbench:")}
best = max(pgbench.values())
print()
single = {label.split(":c")[1]: rate for label, rate in median.items() if label.startswith("exactly-once:")}
floor = {label.split(":c")[1]: rate for label, rate in median.items() if label.startswith("jdbc-floor:")}
stream = {label.split(":c")[1]: rate for label, rate in median.items() if label.startswith("stream-floor:")}
print("%-56s %9s %9s %9s %8s %7s %8s %6s %5s %6s %6s  %s" % ("RUN", "MEDIAN/s", "÷PGBENCH", "÷BEST", "÷SINGLE",
                                                             "÷FLOOR", "÷STREAM", "PG", "REDIS", "CLIENT", "FLUSH",
                                                             "ROUNDS"))
for label, rate in median.items():
    kind, clients = label.split(":c")
    name = {"pgbench": "pgbench, the job's statements, %s clients",
            "jdbc-floor": "a bare JDBC client, the job's statements, %s clients",
            "stream-floor": "the same, leasing and acking via Redis, %s clients",
            "exactly-once": "exactly-once orders, concurrency %s",
            "at-least-once-noop": "at-least-once noop, concurrency %s"}.get(kind)
    name = name % clients if name else "exactly-once orders, %s, concurrency %s" % (
        kind.replace("batch-", "--batch-commit "), clients)
    compared = kind.startswith(("exactly", "batch", "jdbc", "stream"))
    same = "%.2f" % (rate / pgbench[clients]) if clients in pgbench and compared else "-"
    batched = "%.2f" % (rate / single[clients]) if clients in single and kind.startswith("batch") else "-"
    floored = "%.2f" % (rate / floor[clients]) if clients in floor and kind == "exactly-once" else "-"
    streamed = "%.2f" % (rate / stream[clients]) if clients in stream and kind == "exactly-once" else "-"
    pg, redis, client = (statistics.median(part) for part in zip(*cpu[label]))
    flush = "-" if kind == "at-least-once-noop" else "%.2f" % statistics.median(flushes[label])  # no ledger
    print("%-56s %9.0f %9s %9.2f %8s %7s %8s %6.0f %5.0f %6.0f %6s  %s" % (
        name, rate, same, rate / best, batched, floored, streamed, pg, redis, client, flush,
        " ".join(map(str, runs[label]))))
PY
echo
echo "÷FLOOR, ÷STREAM: to the bare JDBC client, without and with Redis; PG, REDIS, CLIENT: median CPU µs per job;" \
  "FLUSH: median commits a WAL flush; ROUNDS: each round's rate"
echo "load average before: $load_before, after: $load_after ($(nproc) cores)"
