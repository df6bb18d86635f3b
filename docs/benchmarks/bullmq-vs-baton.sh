#!/usr/bin/env bash
# Baton beside BullMQ on the same Redis, alternating and repeated, so that anyone can reproduce the comparison.
# Each round runs BullMQ's worker (docs/benchmarks/bullmq/bench.mjs: bulk-add N no-op jobs, a warm-up batch first,
# then one Worker, jobs/s from the first job's start to the last completion) with BullMQ's default worker options
# (concurrency 1), then at concurrency 64 and 200, and then `baton bench` at-least-once noop at concurrency 64 and
# 200 on the same N. Prints the median of the rounds in jobs/s and CPU µs per job of the client process, the ratio
# of Baton at each concurrency to each run, and the load average before and after.
#
#   docs/benchmarks/bullmq-vs-baton.sh [rounds=3] [jobs=100000] [bullmq-warmup=10000]
#
# Redis: BATON_REDIS_URI, by default redis://127.0.0.1:6379 (BullMQ's queues are named bullmq-vs-baton-<time>-<pid>-*
# and obliterated afterwards). Needs the packaged jar (./mvnw -B -q -pl bootstrap -am package -DskipTests), node 18+,
# npm (BullMQ, pinned in bullmq/package-lock.json, is installed into bullmq/node_modules when missing) and python3.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
node_dir="$here/docs/benchmarks/bullmq"
rounds="${1:-3}"
jobs="${2:-100000}"
bullmq_warmup="${3:-10000}"
export BATON_REDIS_URI="${BATON_REDIS_URI:-redis://127.0.0.1:6379}"
export BATON_ADMIN_ADDRESS=off

# shellcheck source=requires.sh
source "$here/docs/benchmarks/requires.sh"
requires bullmq-vs-baton.sh "nodejs npm python3" node npm python3
if [ ! -d "$node_dir/node_modules/bullmq" ]; then
  echo "installing BullMQ into $node_dir/node_modules (npm ci)"
  (cd "$node_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
fi

queue_prefix="bullmq-vs-baton-$(date +%s)-$$"
work="$(mktemp -d)"
cleanup() {
  # bench.mjs obliterates its queues itself; this catches a run that was interrupted
  if command -v redis-cli >/dev/null 2>&1; then
    redis-cli -u "$BATON_REDIS_URI" --scan --pattern "bull:$queue_prefix-*" 2>/dev/null \
      | xargs -r redis-cli -u "$BATON_REDIS_URI" unlink >/dev/null 2>&1 || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

# one figure per line into $work/figures: label, round, jobs per second, CPU µs per job
record() {
  read -r rate cpu < <(python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
print(r["process_jobs_per_s"], r["cpu_us_per_job"])' "$work/run.json")
  echo "$1 $2 $rate $cpu" >>"$work/figures"
  printf '  round %s  %-16s %8s jobs/s %6s µs/job\n' "$2" "$1" "$rate" "$cpu"
}

bullmq_run() {
  local label="$1" round="$2"
  shift 2
  node "$node_dir/bench.mjs" --queue "$queue_prefix-$round-${label//:/-}" --jobs "$jobs" --warmup "$bullmq_warmup" \
    --redis-uri "$BATON_REDIS_URI" "$@" >"$work/run.json" 2>"$work/run.err" || {
    echo "bullmq-vs-baton.sh: bench.mjs $* failed or did not complete all $jobs jobs:" >&2
    cat "$work/run.err" "$work/run.json" >&2
    exit 1
  }
  record "$label" "$round"
}

baton_run() {
  local concurrency="$2"
  "$here/baton" bench --json --jobs "$jobs" --concurrency "$concurrency" --max-warmup 20 >"$work/run.json" \
    2>"$work/run.err" || {
    echo "bullmq-vs-baton.sh: baton bench failed:" >&2
    cat "$work/run.err" "$work/run.json" >&2
    exit 1
  }
  record "baton:c$concurrency" "$1"
}

load_before="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "load average before: $load_before ($(nproc) cores); $rounds rounds, $jobs jobs a run," \
  "BullMQ $(node -p "require('$node_dir/node_modules/bullmq/package.json').version") on node $(node --version)"
for ((round = 1; round <= rounds; round++)); do
  bullmq_run "bullmq:default" "$round"
  bullmq_run "bullmq:c64" "$round" --concurrency 64
  bullmq_run "bullmq:c200" "$round" --concurrency 200
  baton_run "$round" 64
  baton_run "$round" 200
done
load_after="$(cut -d' ' -f1-3 /proc/loadavg)"

python3 - "$work/figures" <<'PY'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    label, _, rate, cpu = line.split()
    runs.setdefault(label, []).append((int(rate), float(cpu)))
median = {label: statistics.median(rate for rate, _ in figures) for label, figures in runs.items()}
names = {"bullmq:default": "BullMQ Worker, default options (concurrency 1)",
         "bullmq:c64": "BullMQ Worker, concurrency 64",
         "bullmq:c200": "BullMQ Worker, concurrency 200",
         "baton:c64": "baton bench, at-least-once noop, concurrency 64",
         "baton:c200": "baton bench, at-least-once noop, concurrency 200"}
print()
print("%-48s %10s %12s %10s %10s  %s" % ("RUN", "MEDIAN/s", "CPU µs/job", "C64 ÷ THIS", "C200 ÷ IT", "ROUNDS"))
for label, figures in runs.items():
    cpu = statistics.median(cpu for _, cpu in figures)
    print("%-48s %10.0f %12.1f %10.2f %10.2f  %s" % (names[label], median[label], cpu,
                                                    median["baton:c64"] / median[label],
                                                    median["baton:c200"] / median[label],
                                                    " ".join(str(rate) for rate, _ in figures)))
PY
echo
echo "load average before: $load_before, after: $load_after ($(nproc) cores)"
