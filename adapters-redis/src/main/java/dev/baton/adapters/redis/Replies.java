package dev.baton.adapters.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waiting for the replies of asynchronous (pipelined) commands. A failure comes back as the client's own
 * {@link RedisException}, as a synchronous command would throw it, so that {@link Calls#call} translates both alike.
 */
final class Replies {
    private final Duration commandTimeout;

    Replies(Duration commandTimeout) {
        this.commandTimeout = commandTimeout;
    }

    /** Waits for a reply, at most the command timeout. */
    <T> T get(RedisFuture<T> future) {
        return get(future, System.nanoTime() + commandTimeout.toNanos());
    }

    /** Waits for a reply, at most until {@code deadline} ({@link System#nanoTime()}). */
    <T> T get(RedisFuture<T> future, long deadline) {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisCommandInterruptedException(e);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof RedisException redisException
                    ? redisException : new RedisException(e.getCause());
        } catch (TimeoutException e) {
            throw new RedisException("no reply within " + commandTimeout, e);
        }
    }

    /** The reply, or empty when Redis answered that the stream or group does not exist. */
    <T> Optional<T> ifExists(RedisFuture<T> future) {
        try {
            return Optional.of(get(future));
        } catch (RedisCommandExecutionException e) {
            String message = String.valueOf(e.getMessage());
            if (message.contains("NOGROUP") || message.contains("no such key")) {
                return Optional.empty();
            }
            throw e;
        }
    }
}
