package dev.baton.adapters.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.domain.Retention;
import io.lettuce.core.Range;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where a trim stops, without a server: at the retention's cutoff, or earlier, at what a group still needs. */
class TrimBoundTest {
    private static final EntryId CUTOFF = new EntryId(1_000, 0);

    @Test
    void aRetentionThatReachesBackToTheEpochHasNoCutoff() {
        Retention tenSeconds = new Retention(Duration.ofSeconds(10));

        assertThat(TrimBound.cutoff(tenSeconds, Instant.ofEpochMilli(10_000))).isEmpty();
        assertThat(TrimBound.cutoff(tenSeconds, Instant.ofEpochMilli(10_001))).contains(new EntryId(1, 0));
    }

    @Test
    void whenNoGroupNeedsOlderEntriesTheTrimGoesUpToTheCutoff() {
        TrimBound bound = TrimBound.of(CUTOFF, true, List.of(new EntryId(2_000, 0), CUTOFF));

        assertThat(bound.minId()).isEqualTo(CUTOFF);
        assertThat(bound.keptByGroups()).isEmpty();
    }

    @Test
    void theOldestEntryThatAnyGroupNeedsHoldsTheTrimBack() {
        EntryId neededByAnotherClient = new EntryId(700, 3);

        TrimBound bound = TrimBound.of(CUTOFF, true, List.of(new EntryId(5_000, 0), neededByAnotherClient));

        assertThat(bound.minId()).isEqualTo(neededByAnotherClient);
        Range<String> kept = bound.keptByGroups().orElseThrow();
        assertThat(kept.getLower()).isEqualTo(Range.Boundary.including("700-3"));
        assertThat(kept.getUpper()).isEqualTo(Range.Boundary.excluding("1000-0"));
    }

    @Test
    void aStreamWithoutOurGroupKeepsEverythingWhateverOtherGroupsNeed() {
        TrimBound bound = TrimBound.of(CUTOFF, false, List.of(new EntryId(5_000, 0)));

        assertThat(bound.minId()).isEqualTo(new EntryId(0, 1));
        assertThat(bound.keptByGroups()).isPresent();
    }
}
