// BullMQ's side of docs/benchmarks/bullmq-vs-baton.sh: the same measurement `baton bench` makes, with BullMQ.
// Bulk-adds N no-op jobs (addBulk, 1 000 a call, as `baton bench` publishes 1 000 a pipelined call), then one Worker
// runs them: jobs/s = N / (first job started -> last job completed). Before that, a warm-up batch on a queue of its
// own runs through a worker with the same options, unmeasured, so that V8 has compiled the hot paths (as
// `baton bench` warms the JVM's JIT). Prints one JSON object. Exit status 0 only if all N jobs completed and the
// queue holds nothing else.
//
//   node bench.mjs --queue NAME [--jobs 100000] [--warmup 10000] [--concurrency C] [--redis-uri redis://...]
//
// Without --concurrency the Worker gets BullMQ's default options (concurrency 1); with it, only that one option
// differs. Both queues are obliterated afterwards.
import { Queue, Worker } from 'bullmq';
import { createRequire } from 'node:module';
import { loadavg } from 'node:os';

const CHUNK = 1000;

function parseArgs(argv) {
  const options = { jobs: 100000, warmup: 10000, concurrency: undefined, queue: undefined,
    redisUri: process.env.BATON_REDIS_URI || 'redis://127.0.0.1:6379' };
  const names = { '--jobs': 'jobs', '--warmup': 'warmup', '--concurrency': 'concurrency', '--queue': 'queue',
    '--redis-uri': 'redisUri' };
  for (let i = 0; i < argv.length; i += 2) {
    const name = names[argv[i]];
    if (!name || argv[i + 1] === undefined) throw new Error(`unknown or incomplete option ${argv[i]}`);
    options[name] = ['jobs', 'warmup', 'concurrency'].includes(name) ? Number(argv[i + 1]) : argv[i + 1];
  }
  if (!options.queue) throw new Error('--queue is required');
  return options;
}

// ioredis options from a redis:// or rediss:// URI (user, password, database in the path)
function connectionOf(uri) {
  const url = new URL(uri);
  const connection = { host: url.hostname, port: Number(url.port || 6379), maxRetriesPerRequest: null };
  if (url.username) connection.username = decodeURIComponent(url.username);
  if (url.password) connection.password = decodeURIComponent(url.password);
  if (url.pathname.length > 1) connection.db = Number(url.pathname.slice(1));
  if (url.protocol === 'rediss:') connection.tls = {};
  return connection;
}

async function fill(queue, jobs) {
  for (let start = 0; start < jobs; start += CHUNK) {
    const size = Math.min(CHUNK, jobs - start);
    await queue.addBulk(Array.from({ length: size }, (_, k) => ({ name: 'noop', data: { n: start + k } })));
  }
}

// runs the queue's `jobs` jobs with one worker; resolves once all have completed or failed
function drain(name, jobs, workerOptions) {
  return new Promise((resolve, reject) => {
    const run = { first: undefined, last: undefined, completed: 0, failed: 0 };
    const worker = new Worker(name, async () => {
      if (run.first === undefined) run.first = performance.now();
    }, workerOptions);
    const settle = () => {
      if (run.completed + run.failed < jobs) return;
      run.last = performance.now();
      worker.close().then(() => resolve(run), reject);
    };
    worker.on('completed', () => { run.completed++; settle(); });
    worker.on('failed', () => { run.failed++; settle(); });
    worker.on('error', reject);
  });
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const connection = connectionOf(options.redisUri);
  const workerOptions = options.concurrency === undefined ? { connection }
    : { connection, concurrency: options.concurrency };
  const queue = new Queue(options.queue, { connection });
  const warmupQueue = new Queue(`${options.queue}-warmup`, { connection });
  try {
    if (options.warmup > 0) {
      await fill(warmupQueue, options.warmup);
      await drain(warmupQueue.name, options.warmup, workerOptions);
    }
    const enqueueStart = performance.now();
    await fill(queue, options.jobs);
    const enqueueMs = performance.now() - enqueueStart;
    const cpuBefore = process.cpuUsage();
    const run = await drain(queue.name, options.jobs, workerOptions);
    const cpu = process.cpuUsage(cpuBefore);
    const counts = await queue.getJobCounts('completed', 'failed', 'waiting', 'active', 'delayed', 'prioritized');
    const leftover = counts.failed + counts.waiting + counts.active + counts.delayed + counts.prioritized;
    const passed = run.completed === options.jobs && counts.completed === options.jobs && leftover === 0;
    console.log(JSON.stringify({
      bullmq: createRequire(import.meta.url)('bullmq/package.json').version,
      node: process.version,
      jobs: options.jobs,
      concurrency: workerOptions.concurrency ?? 'default (1)',
      warmup_jobs: options.warmup,
      enqueue_jobs_per_s: Math.round(options.jobs / (enqueueMs / 1000)),
      process_jobs_per_s: Math.round(options.jobs / ((run.last - run.first) / 1000)),
      cpu_us_per_job: Math.round((cpu.user + cpu.system) / options.jobs),
      checked: { completed_events: run.completed, failed_events: run.failed, counts },
      passed,
      load_average: loadavg().map((load) => load.toFixed(2)).join(' '),
    }));
    process.exitCode = passed ? 0 : 1;
  } finally {
    await queue.obliterate({ force: true });
    await warmupQueue.obliterate({ force: true });
    await queue.close();
    await warmupQueue.close();
  }
}

main().catch((error) => {
  console.error(`bench.mjs: ${error.stack || error}`);
  process.exitCode = 1;
});
