package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.number;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.Uniqueness;
import io.lettuce.core.RedisCommandInterruptedException;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Publishes jobs: a job due now is appended to its partition's stream (XADD), a job due later waits in its
 * partition's delayed set (ZADD). A batch goes out pipelined, in one write, on a connection used only for this. A
 * unique job goes out alone, in one script with the check of its key.
 */
final class Publishing {
    /** How often a pipelined batch still waiting for replies is flushed again (see {@code getPipelined}). */
    private static final long REFLUSH_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

    private final Link pipeline;
    private final Partitions partitions;
    private final WireMapping wire;
    private final Replies replies;
    private final Duration commandTimeout;
    private final LuaScripts scripts;

    /** @param pipeline a connection that does not flush automatically, for batches; used only here */
    Publishing(Link pipeline, LuaScripts scripts, Partitions partitions, WireMapping wire, Replies replies,
               Duration commandTimeout) {
        this.scripts = scripts;
        this.pipeline = pipeline;
        this.partitions = partitions;
        this.wire = wire;
        this.replies = replies;
        this.commandTimeout = commandTimeout;
    }

    void publishAll(List<Job> jobs) {
        if (jobs.isEmpty()) {
            return;
        }
        // encode (and so validate) every job before sending any: a bad job must not leave half a batch published
        List<Function<QueueKeys, Function<RedisClusterAsyncCommands<byte[], byte[]>, RedisFuture<?>>>> encoded =
                new ArrayList<>(jobs.size());
        for (Job job : jobs) {
            if (job.notBefore().isPresent()) {
                byte[] member = bytes(wire.delayedMember(UUID.randomUUID().toString(), wire.publishedFields(job)));
                double due = job.notBefore().get().toEpochMilli();
                encoded.add(keys -> async -> async.zadd(keys.delayed(), due, member));
            } else {
                Object[] fields = wire.publishedFields(job).stream().map(Utf8::bytes).toArray();
                encoded.add(keys -> async -> async.xadd(keys.stream(), fields));
            }
        }
        jobs.stream().map(Job::queue).distinct().forEach(partitions::ensureDeclared);
        List<Function<RedisClusterAsyncCommands<byte[], byte[]>, RedisFuture<?>>> commands = new ArrayList<>();
        for (int i = 0; i < jobs.size(); i++) {
            commands.add(encoded.get(i).apply(partitions.layout("publish", jobs.get(i).queue()).route(jobs.get(i))));
        }
        call("publish", jobs.get(0).queue(), () -> {
            List<RedisFuture<?>> futures;
            // the batch goes out in one write: the pipeline connection does not flush by itself
            synchronized (pipeline) {
                RedisClusterAsyncCommands<byte[], byte[]> async = pipeline.async();
                futures = commands.stream().<RedisFuture<?>>map(command -> command.apply(async)).toList();
                pipeline.stateful().flushCommands();
            }
            long deadline = System.nanoTime() + commandTimeout.toNanos();
            futures.forEach(future -> getPipelined(future, deadline));
            return null;
        });
    }

    /**
     * Publishes a job that carries a uniqueness key, unless a job holds the key (publish_unique.lua): one script on
     * the partition of the key, where its lock lives with the stream and delayed set it guards.
     *
     * @return the id of the job that holds the key
     */
    JobId publishUnique(Job job) {
        List<String> fields = wire.uniqueFields(job);
        Uniqueness unique = Uniqueness.carriedBy(job).orElseThrow();
        partitions.ensureDeclared(job.queue());
        QueueKeys keys = partitions.layout("publish", job.queue()).route(job);
        List<byte[]> args = new ArrayList<>(fields.size() + 4);
        args.add(bytes(job.id().value()));
        args.add(number(unique.afterCompletionMillis()));
        if (job.notBefore().isPresent()) {
            args.add(number(job.notBefore().get().toEpochMilli()));
            args.add(bytes(wire.delayedMember(UUID.randomUUID().toString(), fields)));
        } else {
            args.add(new byte[0]);
            fields.forEach(field -> args.add(bytes(field)));
        }
        byte[][] scriptKeys = {keys.stream(), keys.delayed(), keys.uniqueLock(unique.key()), keys.uniqueEntries()};
        byte[] holder = call("publish", job.queue(), () -> scripts.run(Script.PUBLISH_UNIQUE,
                ScriptOutputType.VALUE, scriptKeys, args.toArray(byte[][]::new)));
        return JobId.of(Utf8.strict(holder).orElseThrow());
    }

    /**
     * Waits for a pipelined reply like {@link Replies#get(RedisFuture, long)}, flushing the pipeline again every
     * {@link #REFLUSH_NANOS} meanwhile. On a cluster, a command for a node whose connection is still being opened can
     * reach that connection after the flush meant for it, and would wait there unsent (Lettuce issue 2420: a fresh
     * {@code baton enqueue}'s first batch then failed with "no reply"); flushing an empty buffer costs nothing.
     */
    private <T> T getPipelined(RedisFuture<T> future, long deadline) {
        try {
            while (!future.await(Math.min(REFLUSH_NANOS, Math.max(0, deadline - System.nanoTime())),
                    TimeUnit.NANOSECONDS) && deadline - System.nanoTime() > 0) {
                synchronized (pipeline) {
                    pipeline.stateful().flushCommands();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RedisCommandInterruptedException(e);
        }
        return replies.get(future, deadline);
    }
}
