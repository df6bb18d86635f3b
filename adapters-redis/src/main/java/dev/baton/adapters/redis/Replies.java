package dev.baton.adapters.redis;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisFuture;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
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
    <T> T get(Future<T> future, long deadline) {
        try {
            return await(future, deadline);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisCommandInterruptedException(e);
        }
    }

    /**
     * Waits for the reply of a command Redis runs whatever the caller does, at most until {@code deadline}: an
     * interrupt meanwhile does not cut the wait short (the command's effect would be lost with its reply), and is kept
     * for the caller.
     */
    <T> T getEvenIfInterrupted(Future<T> future, long deadline) {
        boolean interrupted = Thread.interrupted();
        try {
            while (true) {
                try {
                    return await(future, deadline);
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private <T> T await(Future<T> future, long deadline) throws InterruptedException {
        try {
            return future.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
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
