package dev.baton.bootstrap.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * Jobs arriving in batches over a planned time, with a fault after each batch: a batch for about every 5 s of the
 * time, and once a quarter of the latest batch is done, the next fault of a shuffled cycle over every kind. Once the
 * time is over and every kind had its turn, the rest of the jobs is enqueued at once. The jobs are generated up
 * front, so that the mix's shares hold over the whole run however small the batches are.
 *
 * @param <F> the kinds of fault
 */
final class FaultRounds<F> {
    private static final Duration ROUND = Duration.ofSeconds(5);

    private final Scenario scenario;
    private final List<JobSpec> jobs;
    private final List<F> kinds;
    private final Duration duration;
    private final int rounds;
    private final int batch;
    private final long started = System.nanoTime();
    private int enqueued;

    FaultRounds(Scenario scenario, JobMix mix, int total, Duration duration, List<F> kinds) {
        this.scenario = scenario;
        this.jobs = scenario.generate(mix, total);
        this.kinds = List.copyOf(kinds);
        this.duration = duration;
        // the first batch goes before the first fault, so one round more than there are faults
        this.rounds = (int) Math.max(kinds.size() + 1, duration.toSeconds() / ROUND.toSeconds());
        this.batch = Math.max(1, total / rounds);
    }

    int rounds() {
        return rounds;
    }

    /** Time since the rounds were planned. */
    Duration elapsed() {
        return Duration.ofNanos(System.nanoTime() - started);
    }

    /** Enqueues the first batch, a backlog for the workers to start on. */
    void enqueueFirstBatch() {
        enqueueNext(batch);
    }

    /**
     * Enqueues the remaining batches, each followed by a fault.
     *
     * @param inject injects a fault of the given kind
     * @return how many faults were injected
     */
    int run(Consumer<F> inject) {
        Chaos chaos = new Chaos(scenario);
        List<F> cycle = new ArrayList<>();
        int injected = 0;
        while (enqueued < jobs.size()) {
            // past the time, the rest goes at once; but every fault gets its round first
            boolean late = injected >= kinds.size() && elapsed().compareTo(duration) > 0;
            int next = late ? jobs.size() - enqueued : Math.min(batch, jobs.size() - enqueued);
            enqueueNext(next);
            chaos.awaitProgress(1.0 - 0.75 * next / enqueued);
            if (cycle.isEmpty()) {
                cycle.addAll(kinds);
                Collections.shuffle(cycle, scenario.random());
            }
            inject.accept(cycle.remove(0));
            injected++;
        }
        return injected;
    }

    private void enqueueNext(int count) {
        scenario.enqueue(jobs.subList(enqueued, enqueued + count));
        enqueued += count;
    }
}
