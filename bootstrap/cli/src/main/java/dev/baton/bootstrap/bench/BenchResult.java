package dev.baton.bootstrap.bench;

import dev.baton.bootstrap.EnqueueRoute;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What one benchmark run measured.
 *
 * @param jobThreads       what ran the jobs ({@code platform} or {@code virtual})
 * @param java             the runtime's version
 * @param enqueueJobsPerS  jobs per second enqueued in pipelined batches (with a rate: the rate achieved)
 * @param processJobsPerS  jobs per second from the first start to the last acknowledgement, all jobs accounted for
 * @param cpuMicrosPerJob  CPU time of this process (all threads) per job while the worker ran: unlike the rates, it
 *                         hardly depends on what else the machine is doing
 * @param warmupJobs       warm-up jobs run before the measurement (rounds until the JIT was quiet)
 * @param jitMillis        milliseconds the JIT compiled during the measurement (part of {@code cpuMicrosPerJob})
 * @param peakHeapMib      the heap pools' peaks added up (garbage included, peaks of different moments: an upper
 *                         bound that can exceed {@code -Xmx})
 * @param heapAfterGcMib   the most heap in use just after a collection: what the process kept at its fullest
 * @param rssMib           the process's peak resident set ({@code VmHWM})
 * @param rssNowMib        the resident set at the end ({@code VmRSS})
 * @param exactlyOnce      every job's effect happened once (see {@code check} for what was counted)
 * @param loadAverage      {@code /proc/loadavg} at the end: the 1, 5 and 15 minute load averages
 * @param enqueue          how the measured jobs were enqueued: straight to Redis, or through the outbox (then the
 *                         latencies run from the enqueue call, its commit included, to the job's start)
 * @param outbox           with {@code --enqueue outbox}: the outbox's transactional enqueue rates
 */
public record BenchResult(String mode, int jobs, int concurrency, String handler, int batchCommit, OptionalDouble rate,
                          String jobThreads, String java,
                          double enqueueJobsPerS, double processJobsPerS, LatencyRecorder.Latencies latency,
                          double cpuMicrosPerJob, int warmupJobs, long jitMillis, double peakHeapMib,
                          double heapAfterGcMib, double rssMib, double rssNowMib,
                          boolean exactlyOnce, String check, String loadAverage, EnqueueRoute enqueue,
                          Optional<OutboxThroughput.Rates> outbox) {

    /** The {@code --json} object. */
    public Map<String, Object> json() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("mode", mode);
        json.put("jobs", jobs);
        json.put("concurrency", concurrency);
        json.put("handler", handler);
        json.put("batch_commit", batchCommit);
        json.put("rate", rate.isPresent() ? rate.getAsDouble() : null);
        json.put("job_threads", jobThreads);
        json.put("java", java);
        json.put("enqueue", enqueue.name().toLowerCase(Locale.ROOT));
        outbox.ifPresent(rates -> {
            Map<String, Object> transactional = new LinkedHashMap<>();
            transactional.put("producers", rates.producers());
            transactional.put("one_per_tx_jobs_per_s", Math.round(rates.singleJobsPerS()));
            transactional.put("bulk_" + OutboxThroughput.BULK + "_per_tx_jobs_per_s", Math.round(rates.bulkJobsPerS()));
            json.put("outbox_enqueue", transactional);
        });
        json.put("enqueue_jobs_per_s", Math.round(enqueueJobsPerS));
        json.put("process_jobs_per_s", Math.round(processJobsPerS));
        Map<String, Object> latencies = new LinkedHashMap<>();
        latencies.put("start_p50", latency.startP50());
        latencies.put("start_p99", latency.startP99());
        latencies.put("complete_p50", latency.completeP50());
        latencies.put("complete_p99", latency.completeP99());
        latencies.put("max", latency.max());
        latency.commitToStart().ifPresent(commitToStart -> {
            latencies.put("commit_to_start_p50", commitToStart[0]);
            latencies.put("commit_to_start_p99", commitToStart[1]);
        });
        json.put("latency_ms", latencies);
        json.put("cpu_us_per_job", cpuMicrosPerJob);
        json.put("warmup_jobs", warmupJobs);
        json.put("jit_ms", jitMillis);
        json.put("peak_heap_mib", peakHeapMib);
        json.put("heap_after_gc_mib", heapAfterGcMib);
        json.put("rss_mib", rssMib);
        json.put("rss_now_mib", rssNowMib);
        json.put("exactly_once", exactlyOnce);
        json.put("checked", check);
        json.put("load_average", loadAverage);
        return json;
    }
}
