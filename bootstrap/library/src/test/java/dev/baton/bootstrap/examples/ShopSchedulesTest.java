package dev.baton.bootstrap.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.port.in.ListSchedulesUseCase;
import dev.baton.application.testing.MutableClock;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class ShopSchedulesTest {

    @Test
    void theShopsSchedulesFireAtTheirNextTimes() {
        MutableClock clock = MutableClock.at(Instant.parse("2026-12-01T12:00:03Z"));
        try (Baton baton = ShopSchedules.declare(Baton.builder().clock(clock)
                .adapters(new InMemoryAdapters(clock).ports())).build()) {
            List<ListSchedulesUseCase.ScheduleView> views = baton.use(ListSchedulesUseCase.class)
                    .list(new ListSchedulesUseCase.Command(baton.schedules(), 2));

            assertThat(views).extracting(ListSchedulesUseCase.ScheduleView::nextFires).containsExactly(
                    List.of(Instant.parse("2026-12-02T01:00:00Z"), Instant.parse("2026-12-03T01:00:00Z")),
                    List.of(Instant.parse("2026-12-01T12:00:10Z"), Instant.parse("2026-12-01T12:00:20Z")));
            assertThat(views).allSatisfy(view -> assertThat(view.state().lastFire()).isEmpty());
        }
    }
}
