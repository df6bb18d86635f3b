package dev.baton.bootstrap.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.domain.CatchUp;
import dev.baton.domain.Schedule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchedulesFileTest {

    private static List<Schedule> parse(String... lines) {
        return SchedulesFile.parse("jobs.schedules", List.of(lines));
    }

    @Test
    void readsOneSchedulePerLineSkippingCommentsAndBlankLines() {
        List<Schedule> schedules = parse(
                "# periodic jobs",
                "nightly-report | TZ=Europe/Berlin 0 2 * * * | reports | {\"kind\":\"nightly\"}",
                "",
                "   # indented comment",
                "tick | every 10s catch-up=skip | metrics | {}");

        assertThat(schedules).containsExactly(
                Schedule.of("nightly-report", "TZ=Europe/Berlin 0 2 * * *", "reports", "{\"kind\":\"nightly\"}"),
                Schedule.of("tick", "every 10s", "metrics", "{}").withCatchUp(CatchUp.skip()));
    }

    @Test
    void thePayloadIsTheRestOfTheLinePipesAndHashesIncluded() {
        assertThat(parse("a | every 1m | q | {\"text\":\"x | y # z\"}")).singleElement()
                .extracting(Schedule::payload).isEqualTo("{\"text\":\"x | y # z\"}");
    }

    @Test
    void aBadLineNamesTheFileTheLineAndWhatIsWrong() {
        assertThatThrownBy(() -> parse("# ok", "tick | every 10s | metrics"))
                .isInstanceOf(ConfigException.class)
                .hasMessage("jobs.schedules:2: expected 'name | schedule | queue | payload', got 3 column(s)");
        assertThatThrownBy(() -> parse("tick | 61 * * * * | metrics | {}"))
                .hasMessage("jobs.schedules:1: cron minute field '61': values are 0..59");
        assertThatThrownBy(() -> parse("tick | every 10s | metrics | "))
                .hasMessage("jobs.schedules:1: the payload is empty (write {} for none)");
        assertThatThrownBy(() -> parse("tick | every 1s | q | {}", "tick | every 2s | q | {}"))
                .hasMessage("jobs.schedules:2: schedule 'tick' is declared twice");
        assertThatThrownBy(() -> parse("bad name | every 1s | q | {}"))
                .hasMessageStartingWith("jobs.schedules:1: schedule name 'bad name' is invalid");
    }

    @Test
    void theDocumentedExampleReads() {
        List<Schedule> schedules = SchedulesFile.read(Path.of("src", "test", "resources", "schedules",
                "example.schedules"));

        assertThat(schedules).extracting(Schedule::when).containsExactly("TZ=Europe/Berlin 0 2 * * * catch-up=latest",
                "every 10s catch-up=skip", "0 6 1 * * catch-up=all-within:3d", "*/15 9-17 * * MON-FRI catch-up=latest");
    }

    @Test
    void aMissingFileSaysSo(@TempDir Path dir) {
        assertThatThrownBy(() -> SchedulesFile.read(dir.resolve("none.schedules")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("cannot read schedules file");
    }

    @Test
    void readsAFile(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("jobs.schedules"), "tick | every 1s | q | {}\n");

        assertThat(SchedulesFile.read(file)).extracting(Schedule::name).extracting(Object::toString)
                .containsExactly("tick");
    }
}
