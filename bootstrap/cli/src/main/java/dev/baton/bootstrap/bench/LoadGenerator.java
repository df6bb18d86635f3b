package dev.baton.bootstrap.bench;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.application.port.in.EnqueueJobsUseCase;
import dev.baton.bootstrap.bench.Benchmark.ProgressListener;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * Puts a recorder's jobs on a queue, all at once in pipelined calls of {@value #BATCH} jobs, or at a steady rate
 * while the worker runs. Each job's offer time goes to the recorder as its call goes out.
 */
final class LoadGenerator {
    /** Jobs per pipelined enqueue call. */
    static final int BATCH = 1_000;
    private static final long PROGRESS_EVERY_NANOS = Duration.ofMillis(200).toNanos();

    private final EnqueueJobsUseCase enqueue;
    private final String payload;

    LoadGenerator(EnqueueJobsUseCase enqueue, String payload) {
        this.enqueue = enqueue;
        this.payload = payload;
    }

    /** Enqueues all the recorder's jobs, as phase {@code enqueue}. @return jobs per second */
    double enqueueAll(QueueName queue, LatencyRecorder recorder, ProgressListener progress) {
        int jobs = recorder.jobs();
        Stopwatch took = Stopwatch.start();
        for (int from = 0; from < jobs; from += BATCH) {
            int to = Math.min(jobs, from + BATCH);
            send(queue, recorder, from, to);
            progress.progress("enqueue", to, jobs);
        }
        return jobs / took.seconds();
    }

    /** Offers the recorder's jobs at {@code rate} per second, each as it falls due. @return the rate achieved */
    double offer(QueueName queue, LatencyRecorder recorder, double rate, ProgressListener progress) {
        int jobs = recorder.jobs();
        long began = System.nanoTime();
        int sent = 0;
        long lastReport = began;
        while (sent < jobs) {
            long now = System.nanoTime();
            int due = (int) Math.min(jobs, (long) ((now - began) / 1e9 * rate) + 1);
            if (due > sent) {
                int to = Math.min(due, sent + BATCH);
                send(queue, recorder, sent, to);
                sent = to;
            } else {
                // asleep until the next job is due: polling four times per job took CPU from the worker measured
                LockSupport.parkNanos(began + (long) (sent / rate * 1e9) - now);
            }
            if (now - lastReport > PROGRESS_EVERY_NANOS) {
                progress.progress("offer+process", recorder.done(), jobs);
                lastReport = now;
            }
        }
        return jobs / Stopwatch.seconds(System.nanoTime() - began);
    }

    private void send(QueueName queue, LatencyRecorder recorder, int from, int to) {
        List<EnqueueJobUseCase.Command> commands = new ArrayList<>(to - from);
        for (int i = from; i < to; i++) {
            commands.add(EnqueueJobUseCase.Command.now(queue, JobId.of(recorder.jobId(i)), payload));
        }
        long now = System.nanoTime();
        for (int i = from; i < to; i++) {
            recorder.offered(i, now);
        }
        enqueue.enqueueAll(new EnqueueJobsUseCase.Command(commands));
        recorder.returned(from, to, System.nanoTime());
    }
}
