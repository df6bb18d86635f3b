package dev.baton.application.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.out.AuditTrail;
import dev.baton.domain.AuditEntry;
import dev.baton.domain.AuditRecord;
import dev.baton.domain.QueueName;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * What every audit trail guarantees, as tests: entries come back whole, newest first, a keyset page at a time, and
 * go once older than a cutoff. An adapter test extends this class and creates an empty trail for each test.
 */
public abstract class AuditTrailContract {
    private static final Instant T0 = Instant.parse("2026-11-29T10:00:00.123456Z");

    private AuditTrail trail;

    /** A trail that holds no entry yet. Called once per test, first. */
    protected abstract AuditTrail createEmptyTrail();

    @BeforeEach
    void create() {
        trail = createEmptyTrail();
    }

    @Test
    void anEntryComesBackWhole() {
        AuditEntry replay = new AuditEntry(T0, Optional.of("operator"), "10.0.0.7", "POST",
                "/api/queues/payments/dead/replay", Optional.of(QueueName.of("payments")), "queues/dead/replay",
                "{\"filter\":{\"reason\":\"POISON\"}}", OptionalLong.of(21), 200);
        AuditEntry refused = new AuditEntry(T0, Optional.empty(), "::1", "POST", "/api/queues/q/pause",
                Optional.empty(), "queues/pause", "", OptionalLong.empty(), 403);

        trail.record(replay);
        trail.record(refused);

        assertThat(trail.recent(Optional.empty(), 10)).extracting(AuditRecord::entry)
                .containsExactly(refused, replay);
    }

    @Test
    void anEmptyTrailHasNoEntries() {
        assertThat(trail.recent(Optional.empty(), 10)).isEmpty();
    }

    @Nested
    class Pages {
        @Test
        void newestFirstUpToTheLimit() {
            recordAt(T0, "first");
            recordAt(T0, "second");
            recordAt(T0, "third");

            assertThat(paths(trail.recent(Optional.empty(), 2))).containsExactly("third", "second");
        }

        @Test
        void theNextPageStartsBelowTheCursor() {
            recordAt(T0, "first");
            recordAt(T0, "second");
            recordAt(T0, "third");
            List<AuditRecord> page = trail.recent(Optional.empty(), 2);

            List<AuditRecord> next = trail.recent(Optional.of(page.get(1).id()), 2);

            assertThat(paths(next)).containsExactly("first");
            assertThat(trail.recent(Optional.of(next.get(0).id()), 2)).isEmpty();
        }

        @Test
        void idsGrowWithEachEntry() {
            recordAt(T0, "first");
            recordAt(T0.minusSeconds(60), "second, from a clock behind");

            List<AuditRecord> found = trail.recent(Optional.empty(), 2);

            assertThat(found.get(0).id()).isGreaterThan(found.get(1).id());
            assertThat(paths(found)).containsExactly("second, from a clock behind", "first");
        }
    }

    @Nested
    class Retention {
        @Test
        void entriesBeforeTheCutoffAreForgotten() {
            recordAt(T0.minus(Duration.ofDays(91)), "old");
            recordAt(T0.minus(Duration.ofDays(90)), "at the cutoff");
            recordAt(T0, "new");

            long forgotten = trail.forgetBefore(T0.minus(Duration.ofDays(90)));

            assertThat(forgotten).isEqualTo(1);
            assertThat(paths(trail.recent(Optional.empty(), 10))).containsExactly("new", "at the cutoff");
        }

        @Test
        void nothingToForgetCountsZero() {
            recordAt(T0, "new");

            assertThat(trail.forgetBefore(T0)).isZero();
            assertThat(trail.recent(Optional.empty(), 10)).hasSize(1);
        }
    }

    private void recordAt(Instant at, String path) {
        trail.record(new AuditEntry(at, Optional.of("operator"), "127.0.0.1", "POST", path, Optional.empty(),
                "test", "", OptionalLong.empty(), 200));
    }

    private static List<String> paths(List<AuditRecord> records) {
        return records.stream().map(kept -> kept.entry().path()).toList();
    }
}
