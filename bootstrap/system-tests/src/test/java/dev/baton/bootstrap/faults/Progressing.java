package dev.baton.bootstrap.faults;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A wait that tells a stall from a slow machine: it lasts as long as the run keeps moving and gives up only once
 * nothing moved for a whole window. A fault run's speed is not its verdict (a crashed worker's restart alone takes
 * half a minute on a loaded machine, and a poison job costs one crash per isolated delivery), its liveness is: a wait
 * bounded in total would fail a slow run as if it had stopped.
 */
final class Progressing {
    private final Duration window;
    private final Duration poll;

    /**
     * @param window how long nothing may move before the wait fails
     * @param poll how often the condition and the progress are looked at
     */
    Progressing(Duration window, Duration poll) {
        this.window = window;
        this.poll = poll;
    }

    /**
     * Waits until {@code done}, for as long as {@code progress} keeps changing.
     *
     * @param progress a mark of how far the run got (a count of settled jobs, say): any change is progress
     * @throws ConditionTimeoutException once the mark stayed the same for a whole window before {@code done}
     */
    void until(String alias, Callable<?> progress, Callable<Boolean> done) {
        AtomicReference<Object> mark = new AtomicReference<>(call(progress));
        while (true) {
            Object before = mark.get();
            Step step = await(alias + " (nothing moved for " + window.toSeconds() + " s from " + before + ")")
                    .atMost(window).pollInterval(poll).ignoreExceptions().until(() -> {
                        if (done.call()) {
                            return Step.DONE;
                        }
                        mark.set(progress.call());
                        return Objects.equals(mark.get(), before) ? Step.STILL : Step.MOVED;
                    }, seen -> seen != Step.STILL);
            if (step == Step.DONE) {
                return;
            }
        }
    }

    private enum Step {
        DONE, MOVED, STILL
    }

    private static Object call(Callable<?> progress) {
        try {
            return progress.call();
        } catch (Exception e) {
            return e.toString();
        }
    }
}
