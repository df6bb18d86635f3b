package dev.baton.bootstrap.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.bootstrap.testing.TestEndpoints;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The harness must be able to fail: the invariant checker flags every kind of deviation, and the private servers
 * really lose or keep what their settings say.
 */
@Tag("faults")
class HarnessIT {

    @Test
    void invariantCheckerFlagsLostDoubledAndContradictoryJobs() throws SQLException {
        onThrowawayQueue((probe, ledger, sql, schema) -> {
            sql.execute("create table " + schema + "." + LedgerProbe.COMPLETIONS + " (job_id text primary key)");
            sql.execute("create table " + schema + ".demo_shipments (job_id text)");
            // ok: completed once; doubled: two effects; both: completed and dead; dead-ok: dead, no effect;
            // lost: nothing; ghost: an effect without completion; poison-done: a poison job that completed;
            // innocent: a job that should have completed, dead as POISON
            sql.execute("insert into " + schema + "." + LedgerProbe.COMPLETIONS
                    + " values ('ok'), ('doubled'), ('both'), ('poison-done')");
            sql.execute("insert into " + schema + ".demo_shipments values ('ok'), ('doubled'), ('doubled'),"
                    + " ('both'), ('ghost'), ('poison-done')");
            deadLetter(probe, "both", "NON_RETRYABLE");
            deadLetter(probe, "dead-ok", "NON_RETRYABLE");
            deadLetter(probe, "ghost", "EXHAUSTED");
            deadLetter(probe, "innocent", "POISON");
            List<JobSpec> jobs = List.of(job("ok"), job("doubled"), job("both"), new JobSpec("dead-ok", 0, true, 0),
                    job("lost"), new JobSpec("ghost", 3, false, 0), new JobSpec("poison-done", 0, true, 0),
                    job("innocent"));

            Verdict verdict = new LedgerInvariant(probe, ledger, 3, false).check(jobs);

            assertThat(verdict.lost()).containsExactly("lost");
            assertThat(verdict.duplicateEffects()).hasSize(2)
                    .anySatisfy(d -> assertThat(d).startsWith("doubled("))
                    .anySatisfy(d -> assertThat(d).startsWith("ghost("));
            assertThat(verdict.completedAndDead()).containsExactly("both");
            assertThat(verdict.wrongFate()).hasSize(2)
                    .anySatisfy(d -> assertThat(d).startsWith("both("))
                    .anySatisfy(d -> assertThat(d).startsWith("poison-done("));
            assertThat(verdict.innocentPoison()).containsExactly("innocent");
            assertThat(verdict.contradicted()).as("a schema without dead outcomes contradicts nothing").isEmpty();
            assertThat(verdict.completed()).isEqualTo(4);
            assertThat(verdict.deadByReason()).isEqualTo(Map.of("NON_RETRYABLE", 2, "EXHAUSTED", 1, "POISON", 1));
            assertThat(verdict.holds()).isFalse();
        });
    }

    @Nested
    class OnALedgerOfOutcomes {
        @Test
        void theCheckerFlagsDeadLettersThatContradictIt() throws SQLException {
            onThrowawayQueue((probe, ledger, sql, schema) -> {
                sql.execute("create table " + schema + "." + LedgerProbe.OUTCOMES
                        + " (job_id text primary key, state text not null, reason text)");
                sql.execute("create table " + schema + ".demo_shipments (job_id text)");
                // ok: completed; shipped: completed, a dead letter left over; poison: dead as POISON in both;
                // forgotten: dead in the ledger, no dead letter; unrecorded: a dead letter the ledger does not know;
                // other-reason: the two disagree; dead-shipped: dead in the ledger, yet its effect committed;
                // innocent: a job that should have completed, dead as POISON in both
                sql.execute("insert into " + schema + "." + LedgerProbe.OUTCOMES
                        + " values ('ok', 'completed', null), ('shipped', 'completed', null),"
                        + " ('poison', 'dead', 'POISON'), ('forgotten', 'dead', 'POISON'),"
                        + " ('other-reason', 'dead', 'POISON'), ('dead-shipped', 'dead', 'POISON'),"
                        + " ('innocent', 'dead', 'POISON')");
                sql.execute("insert into " + schema + ".demo_shipments values ('ok'), ('shipped'), ('dead-shipped')");
                deadLetter(probe, "shipped", "NON_RETRYABLE");
                deadLetter(probe, "poison", "POISON");
                deadLetter(probe, "unrecorded", "POISON");
                deadLetter(probe, "other-reason", "NON_RETRYABLE");
                deadLetter(probe, "dead-shipped", "POISON");
                deadLetter(probe, "innocent", "POISON");
                List<JobSpec> jobs = List.of(job("ok"), job("shipped"), poison("poison"), poison("forgotten"),
                        poison("unrecorded"), poison("other-reason"), poison("dead-shipped"), job("innocent"));

                Verdict verdict = new LedgerInvariant(probe, ledger, 3, true).check(jobs);

                assertThat(verdict.completed()).isEqualTo(2);
                assertThat(verdict.completedAndDead()).containsExactly("shipped");
                assertThat(verdict.contradicted()).hasSize(3)
                        .anySatisfy(d -> assertThat(d).startsWith("forgotten("))
                        .anySatisfy(d -> assertThat(d).startsWith("unrecorded("))
                        .anySatisfy(d -> assertThat(d).startsWith("other-reason("));
                assertThat(verdict.duplicateEffects()).singleElement().asString().startsWith("dead-shipped(");
                assertThat(verdict.innocentPoison()).containsExactly("innocent");
                assertThat(verdict.lost()).isEmpty();
                assertThat(verdict.wrongFate()).singleElement().asString().startsWith("shipped(");
                assertThat(verdict.deadByReason()).as("the ledger's reason first")
                        .isEqualTo(Map.of("POISON", 6, "NON_RETRYABLE", 1));
                assertThat(ledger.completedCount()).isEqualTo(2);
                assertThat(ledger.isCompleted("poison")).isFalse();
                assertThat(verdict.holds()).isFalse();
            });
        }
    }

    @Nested
    class PrivateRedisAcrossKill9 {
        @Test
        void keepsEveryAcknowledgedWriteWithAofAlwaysAndNothingWithout() {
            for (PrivateRedis.Persistence persistence : List.of(PrivateRedis.Persistence.AOF_ALWAYS,
                    PrivateRedis.Persistence.AOF_EVERYSEC, PrivateRedis.Persistence.NONE)) {
                try (PrivateRedis redis = PrivateRedis.start(persistence)) {
                    try (QueueProbe probe = new QueueProbe(redis.uri(), "persistence")) {
                        for (int i = 0; i < 500; i++) {
                            probe.appendRaw(Map.of(QueueProbe.bytes("job_id"), QueueProbe.bytes("j" + i)));
                        }
                        // the test is about what reached the OS: everysec may hold the AOF buffer back for up to
                        // 2 s while a background fsync runs on a busy disk (see RELIABILITY.md), and the first AOF
                        // rewrite of a new server switches files only when it ends
                        await("AOF written").atMost(Duration.ofSeconds(10)).until(() -> {
                            String info = probe.redis().info("persistence");
                            return info.contains("aof_enabled:0") || info.contains("aof_buffer_length:0")
                                    && info.contains("aof_rewrite_in_progress:0");
                        });
                    }
                    redis.crashAndRestart();
                    try (QueueProbe probe = new QueueProbe(redis.uri(), "persistence")) {
                        // a kill -9 of the process (not of the machine): what was written to the AOF is in the OS
                        assertThat(probe.streamLength()).as(persistence.name())
                                .isEqualTo(persistence == PrivateRedis.Persistence.NONE ? 0 : 500);
                    }
                }
            }
        }
    }

    @Test
    void privatePostgresKeepsCommitsAcrossACrashAndTerminatesBackends() throws SQLException {
        try (PrivatePostgres postgres = PrivatePostgres.start()) {
            try (Connection connection = DriverManager.getConnection(postgres.jdbcUrl());
                 Statement sql = connection.createStatement()) {
                sql.execute("create table t (id int)");
                sql.execute("insert into t values (1)");
            }
            postgres.crash();
            postgres.startServer();
            try (Connection victim = DriverManager.getConnection(postgres.jdbcUrl());
                 Statement sql = victim.createStatement();
                 ResultSet rows = sql.executeQuery("select count(*) from t")) {
                rows.next();
                assertThat(rows.getInt(1)).isEqualTo(1);
                assertThat(postgres.terminateBackends()).isGreaterThanOrEqualTo(1);
                assertThatThrownBy(() -> sql.executeQuery("select 1")).isInstanceOf(SQLException.class);
            }
        }
    }

    /** What a checker test stages and checks on a queue and a ledger schema of its own, removed afterwards. */
    @FunctionalInterface
    private interface Staged {
        void run(QueueProbe probe, LedgerProbe ledger, Statement sql, String schema) throws SQLException;
    }

    private static void onThrowawayQueue(Staged test) throws SQLException {
        String suffix = Long.toString(ThreadLocalRandom.current().nextLong(1L << 40), 36);
        String queue = "faults-bite-" + suffix;
        String schema = ("faults_bite_" + suffix).toLowerCase(Locale.ROOT);
        LedgerProbe ledger = new LedgerProbe(TestEndpoints.jdbcUrl(), schema);
        try (QueueProbe probe = new QueueProbe(TestEndpoints.redisUri(), queue);
             Connection connection = DriverManager.getConnection(TestEndpoints.jdbcUrl());
             Statement sql = connection.createStatement()) {
            sql.execute("create schema " + schema);
            test.run(probe, ledger, sql, schema);
        } finally {
            ledger.dropSchema();
            try (QueueProbe probe = new QueueProbe(TestEndpoints.redisUri(), queue)) {
                probe.redis().del(QueueProbe.bytes("baton:{" + queue + "}:dead"));
            }
        }
    }

    private static JobSpec job(String id) {
        return new JobSpec(id, 0, false, 0);
    }

    private static JobSpec poison(String id) {
        return new JobSpec(id, 0, true, 0);
    }

    private static void deadLetter(QueueProbe probe, String jobId, String reason) {
        probe.redis().xadd(QueueProbe.bytes("baton:{" + probe.queue() + "}:dead"),
                Map.of(QueueProbe.bytes(DeadLetterFields.JOB_ID), QueueProbe.bytes(jobId),
                        QueueProbe.bytes(DeadLetterFields.REASON), QueueProbe.bytes(reason)));
    }
}
