package dev.baton.application.port.in;

import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import java.util.Objects;

/** What became of a change to one delayed job ({@link RunJobNowUseCase}, {@link DeleteDelayedJobUseCase}). */
public sealed interface DelayedJobChange {

    /** The job waited in the queue's delayed set and is changed. */
    record Changed() implements DelayedJobChange {
    }

    /** The queue holds no delayed job with that id: where the job is instead ({@link Whereabouts.Unknown}: none). */
    record NotDelayed(Whereabouts whereabouts) implements DelayedJobChange {
        public NotDelayed {
            Objects.requireNonNull(whereabouts, "whereabouts");
        }
    }
}
