package dev.baton.adapters.redis;

import io.lettuce.core.RedisException;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The parts on one set of connections: one for commands, one that flushes only when told to (for pipelined
 * batches, used only by publishing), and the blocking readers' own; the scripts loaded there.
 */
final class TransportParts implements AutoCloseable {
    final Link connection;
    final Link pipeline;
    final BlockingReads blockingReads;
    final Partitions partitions;
    final LayoutChanges layoutChanges;
    final Publishing publishing;
    final Leasing leasing;
    final PendingEntries pending;
    final EntryMoves moves;
    final Statistics statistics;
    final Totals totals;
    final Housekeeping housekeeping;
    final DeadLetters deadLetters;
    final JobLookup lookup;
    final DelayedJobChanges delayedChanges;
    final QueueDirectory directory;
    final RedisScheduleFires scheduleFires;
    final QueuePauses pauses;
    final JobCancels cancels;
    final RedisTransportMemory memory;
    final ConsumerClaims claims;

    private TransportParts(Connector connector, Link connection, Link pipeline, BlockingReads blockingReads,
                   LuaScripts scripts, WireMapping wire, RedisAdapter.Config config, Clock clock) {
        this.connection = connection;
        this.pipeline = pipeline;
        this.blockingReads = blockingReads;
        Groups groups = new Groups(connection.sync());
        Replies replies = new Replies(config.commandTimeout());
        Deliveries deliveries = new Deliveries(wire);
        Namespace namespace = config.keyNamespace();
        this.partitions = new Partitions(connection.sync(), scripts, groups, namespace, config.groupSuffix(),
                config.groupStartsAtEnd());
        this.statistics = new Statistics(connection, partitions, replies);
        this.totals = new Totals(connection, partitions, replies);
        this.layoutChanges = new LayoutChanges(connection.sync(), partitions, groups, statistics);
        this.publishing = new Publishing(pipeline, scripts, partitions, wire, replies, config.commandTimeout());
        this.cancels = new JobCancels(connection, namespace);
        this.leasing = new Leasing(connection, blockingReads, scripts, partitions, deliveries, replies,
                config.commandTimeout(), cancels);
        this.pending = new PendingEntries(connection.sync(), scripts, partitions, deliveries);
        this.moves = new EntryMoves(scripts, partitions, wire, clock);
        this.housekeeping = new Housekeeping(connection.sync(), scripts, partitions, groups);
        this.deadLetters = new DeadLetters(connection.sync(), partitions, moves, wire);
        this.lookup = new JobLookup(connection.sync(), partitions, groups, deadLetters, wire);
        this.delayedChanges = new DelayedJobChanges(scripts, lookup);
        this.directory = new QueueDirectory(connection.sync(), namespace);
        this.scheduleFires = new RedisScheduleFires(connection.sync(), scripts, partitions, wire);
        this.pauses = new QueuePauses(connection, namespace, replies);
        this.memory = new RedisTransportMemory(connection, namespace);
        this.claims = new ConsumerClaims(connector, connection, scripts, namespace);
    }

    /**
     * Connects (a cluster client's connections follow the cluster's topology) and loads the scripts.
     *
     * @throws RedisException when Redis does not answer, refuses the connection (a wrong password), or is a
     *                        cluster that serves not every hash slot yet
     */
    static TransportParts connect(Connector connector, WireMapping wire, RedisAdapter.Config config, Clock clock) {
        Link connection = connector.connect();
        Link pipeline = null;
        try {
            connector.requireReady();
            pipeline = connector.connect();
            pipeline.stateful().setAutoFlushCommands(false);
            LuaScripts scripts = LuaScripts.load(connection.sync());
            return new TransportParts(connector, connection, pipeline, new BlockingReads(connector), scripts, wire,
                    config, clock);
        } catch (RuntimeException e) {
            // a half-made set is never used: a later attempt makes a whole one
            connection.close();
            if (pipeline != null) {
                pipeline.close();
            }
            throw e;
        }
    }

    /** True when Redis answers a PING within {@code timeout}. */
    boolean answersPing(Duration timeout) {
        try {
            return "PONG".equals(connection.async().ping().get(timeout.toMillis(), TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException | TimeoutException | RedisException e) {
            return false;
        }
    }

    @Override
    public void close() {
        claims.close();
        blockingReads.close();
        pipeline.close();
        connection.close();
    }
}
