package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.bootstrap.testing.TestEndpoints;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fault 4: a failover that rolls the consumer group back, so that jobs already completed are delivered again; the
 * ledger must acknowledge them without a second effect.
 */
@Tag("faults")
class GroupRollbackIT {

    /** {@code XGROUP SETID … 0} after everything completed: every entry of the stream is delivered again. */
    @Nested
    class AGroupRewoundToTheStart {
        @Test
        void redeliversEverythingAndNoEffectDoubles() {
            try (Scenario scenario = Scenario.onSharedServers("setid", Map.of())) {
                scenario.enqueue(new JobMix(0.1, 0.01, 0.01, 0), SoakSize.scaled(400));
                WorkerFleet fleet = scenario.startWorkers(2);
                Verdict before = scenario.verify(Duration.ofMinutes(3), fleet);
                long entries = scenario.probe().streamLength();
                new Chaos(scenario).rollBackGroup();
                assertThat(scenario.probe().allDelivered()).as("rewound").isFalse();
                Verdict after = scenario.verify(Duration.ofMinutes(3), fleet);
                assertThat(after.completed()).isEqualTo(before.completed());
                assertThat(entries).as("entries delivered again").isGreaterThanOrEqualTo(scenario.jobs().size());
            }
        }
    }

    /**
     * A replica promoted with {@code REPLICAOF NO ONE} while the old primary goes on for a while (asynchronous
     * replication lagging behind by a large share of the run), then the old primary dies and the workers move to
     * the promoted one: everything the old primary acknowledged after the split is delivered again.
     */
    @Nested
    class APromotedStaleReplica {
        @Test
        void redeliversWhatTheOldPrimaryCompletedAndNoEffectDoubles() {
            try (PrivateRedis primary = PrivateRedis.start(PrivateRedis.Persistence.NONE);
                 PrivateRedis replica = PrivateRedis.replicaOf(primary);
                 Scenario scenario = Scenario.on("replica", primary.uri(), TestEndpoints.jdbcUrl(), Map.of())) {
                scenario.enqueue(new JobMix(0.1, 0.01, 0.01, 20), SoakSize.scaled(400));
                scenario.probe().awaitReplicated(1);
                WorkerFleet onPrimary = scenario.startWorkers(3);
                Chaos chaos = new Chaos(scenario);
                chaos.awaitProgress(0.3);
                replica.promote();
                long completedAtSplit = scenario.ledger().completedCount();
                chaos.awaitProgress(0.6);
                onPrimary.killAll();
                primary.crash();
                long completedAtFailover = scenario.ledger().completedCount();
                scenario.faults().count("replica promoted (REPLICAOF NO ONE), primary killed");
                scenario.switchRedis(replica.uri());
                WorkerFleet onReplica = scenario.startWorkers(3);
                scenario.verify(Duration.ofMinutes(3), onReplica);
                assertThat(completedAtFailover - completedAtSplit).as("completions the promoted replica never saw")
                        .isPositive();
                scenario.note("completions the promoted replica never saw (delivered again, no second effect): "
                        + (completedAtFailover - completedAtSplit));
            }
        }
    }
}
