package dev.baton.bootstrap;

import dev.baton.application.port.out.JobObserver;
import dev.baton.domain.DeadLetter;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The application's {@code onDeadLetter} listener as an observer: what it throws is logged, never thrown on. */
final class DeadLetterListener implements JobObserver {
    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterListener.class);

    private final Consumer<DeadLetter> listener;

    DeadLetterListener(Consumer<DeadLetter> listener) {
        this.listener = listener;
    }

    @Override
    public void jobDeadLettered(DeadLetter letter) {
        try {
            listener.accept(letter);
        } catch (RuntimeException e) {
            // the letter is written and the entry acknowledged already: a listener's failure changes neither
            LOG.warn("onDeadLetter listener failed queue={} job={}", letter.queue(), letter.jobId().orElse("(none)"),
                    e);
        }
    }
}
