package dev.baton.bootstrap.bench;

import dev.baton.application.port.out.JobObserver;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.Job;
import dev.baton.domain.JobError;
import java.time.Duration;

/**
 * The bench's observer among Baton's own ({@code BatonBuilder.observer}, next to the metrics). Baton's observers are
 * fixed when it is built, and each round of jobs has a recorder of its own, so this one passes the events a recorder
 * times on to the recorder of the round running now. The other events reach the metrics only.
 */
final class CurrentRecorder implements JobObserver {
    private volatile JobObserver current = JobObserver.NONE;

    void attach(LatencyRecorder recorder) {
        current = recorder;
    }

    @Override
    public void jobStarted(Job job, Duration waited) {
        current.jobStarted(job, waited);
    }

    @Override
    public void jobCompleted(Job job, Duration processing) {
        current.jobCompleted(job, processing);
    }

    @Override
    public void jobFailed(Job job, JobError error) {
        current.jobFailed(job, error);
    }

    @Override
    public void jobDeadLettered(DeadLetter letter) {
        current.jobDeadLettered(letter);
    }
}
