package dev.baton.bootstrap.examples;

import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.NamedJobHandler;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.handler.SnoozeException;
import java.time.Duration;
import java.util.Optional;

/** Books a carrier's pickup; while the depot is closed, the job snoozes until it opens, spending no attempt. */
public final class PickupHandler implements NamedJobHandler {
    /** Nothing bounds snoozing but the handler: after a day of half-hour snoozes, a person should look. */
    static final int MAX_SNOOZES = 48;

    /** The carrier's depot: how long it stays closed, empty while it is open. */
    public interface Depot {
        Optional<Duration> closedFor();

        String bookPickup(String jobId);
    }

    private final Depot depot;

    public PickupHandler(Depot depot) {
        this.depot = depot;
    }

    @Override
    public String name() {
        return "shop-pickups";
    }

    @Override
    public Optional<String> handle(JobContext context) {
        Optional<Duration> closed = depot.closedFor();
        if (closed.isPresent()) {
            if (context.job().snoozes() >= MAX_SNOOZES) {
                throw new NonRetryableException("the depot stayed closed through " + MAX_SNOOZES + " snoozes");
            }
            // runs again once the depot opens: the same attempt, and nothing written in this one commits
            throw new SnoozeException(closed.get());
        }
        return Optional.of("pickup " + depot.bookPickup(context.job().id().value()));
    }
}
