package dev.baton.bootstrap.bench;

import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.bench.Benchmark.ProgressListener;
import dev.baton.domain.ConsumerName;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Starts the bench's workers through Baton's own wiring: the {@link RunWorkerUseCase} that {@code baton worker} starts
 * too, built from the configuration (concurrency, batch commit, mode). A worker's events reach the recorder of its
 * round through the {@link CurrentRecorder} added to Baton's observers.
 */
final class BenchWorker {
    private static final Duration STALL = Duration.ofSeconds(60);
    private static final long POLL_MILLIS = 50;

    private final RunWorkerUseCase workers;
    private final CurrentRecorder timing;
    private final ConsumerName consumer;
    private final int concurrency;
    private final String handler;
    private final Duration grace;
    private final ProgressListener progress;

    BenchWorker(RunWorkerUseCase workers, CurrentRecorder timing, ConsumerName consumer, int concurrency,
                String handler, Duration grace, ProgressListener progress) {
        this.workers = workers;
        this.timing = timing;
        this.consumer = consumer;
        this.concurrency = concurrency;
        this.handler = handler;
        this.grace = grace;
        this.progress = progress;
    }

    /** Starts a worker on {@code queue} whose events go to {@code recorder}; closing the run stops it. */
    Run start(QueueName queue, LatencyRecorder recorder) {
        timing.attach(recorder);
        return new Run(workers.start(new RunWorkerUseCase.Command(List.of(queue), consumer, concurrency,
                Optional.of(handler))), recorder);
    }

    /** A running worker and the recorder of its jobs. */
    final class Run implements AutoCloseable {
        private final RunningWorker worker;
        private final LatencyRecorder recorder;

        private Run(RunningWorker worker, LatencyRecorder recorder) {
            this.worker = worker;
            this.recorder = recorder;
        }

        /** Waits until every job completed, reporting progress as {@code phase}; fails when none did for a minute. */
        void awaitAll(String phase) throws InterruptedException {
            int jobs = recorder.jobs();
            long lastDone = -1;
            long lastChange = System.nanoTime();
            while (recorder.done() < jobs) {
                Thread.sleep(POLL_MILLIS);
                long done = recorder.done();
                progress.progress(phase, done, jobs);
                if (done != lastDone) {
                    lastDone = done;
                    lastChange = System.nanoTime();
                } else if (System.nanoTime() - lastChange > STALL.toNanos()) {
                    throw new IllegalStateException("no job completed for " + STALL.toSeconds() + " s: " + done
                            + " of " + jobs + " done, " + recorder.failures() + " failed attempts, "
                            + recorder.deadLettered() + " dead-lettered");
                }
            }
            progress.progress(phase, recorder.done(), jobs);
        }

        /** Stops the worker gracefully. */
        @Override
        public void close() {
            worker.stop(grace);
        }
    }
}
