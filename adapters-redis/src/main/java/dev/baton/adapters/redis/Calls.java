package dev.baton.adapters.redis;

import dev.baton.application.port.out.TransportException;
import dev.baton.domain.QueueName;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisException;
import java.util.function.Supplier;

/**
 * The one place where the client's exceptions become the port's: every part of the transport runs its Redis commands
 * through {@link #call}, so a caller sees a {@link TransportException} naming the operation and queue, never Lettuce.
 */
final class Calls {
    private Calls() {
    }

    /** Translates the client's exceptions into the port's. */
    static <T> T call(String operation, QueueName queue, Supplier<T> action) {
        return call("Redis " + operation + " on queue " + queue, action);
    }

    /** Translates the client's exceptions into the port's, for a call that concerns no one queue. */
    static <T> T call(String what, Supplier<T> action) {
        try {
            return action.get();
        } catch (RedisCommandInterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TransportException(what + " was interrupted", e);
        } catch (RedisException e) {
            throw new TransportException(what + " failed: " + e.getMessage(), e);
        }
    }
}
