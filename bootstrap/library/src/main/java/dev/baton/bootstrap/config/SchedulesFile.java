package dev.baton.bootstrap.config;

import dev.baton.domain.BatonException;
import dev.baton.domain.PayloadLimit;
import dev.baton.domain.Schedule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * A schedules file ({@code baton worker --schedules FILE}, {@code BATON_SCHEDULES}): one schedule per line,
 * {@code name | schedule | queue | payload}, e.g. {@code tick | every 10s | metrics | {}}. A line whose first
 * character (after blanks) is {@code #} is a comment, blank lines are skipped; the payload is the rest of the line, so
 * it may hold {@code |} and {@code #}. A bad line fails the whole file, naming {@code file:line} and what is wrong.
 */
public final class SchedulesFile {
    private SchedulesFile() {
    }

    /** @throws ConfigException naming the file and line of the first bad line, or why the file cannot be read */
    public static List<Schedule> read(Path file) {
        try {
            return parse(file.toString(), Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new ConfigException("cannot read schedules file " + file + ": " + e);
        }
    }

    /**
     * Schedules written as a list of lines in the file's format, e.g. the Spring property {@code baton.schedules};
     * errors name the element: {@code baton.schedules[2]}.
     *
     * @throws ConfigException naming the first bad element and what is wrong
     */
    public static List<Schedule> fromList(String property, List<String> lines) {
        return parse(lines, index -> property + "[" + index + "]");
    }

    /** @param origin how the lines' source is named in errors: the file's path */
    static List<Schedule> parse(String origin, List<String> lines) {
        return parse(lines, index -> origin + ":" + (index + 1));
    }

    private static List<Schedule> parse(List<String> lines, IntFunction<String> whereOf) {
        List<Schedule> schedules = new ArrayList<>();
        for (int index = 0; index < lines.size(); index++) {
            String line = lines.get(index).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = whereOf.apply(index);
            Schedule schedule = schedule(where, line);
            schedules.stream().filter(known -> known.name().equals(schedule.name())).findFirst().ifPresent(known -> {
                throw new ConfigException(where + ": schedule '" + schedule.name() + "' is declared twice");
            });
            schedules.add(schedule);
        }
        return schedules;
    }

    private static Schedule schedule(String where, String line) {
        String[] columns = line.split("\\|", 4);
        if (columns.length < 4) {
            throw new ConfigException(where + ": expected 'name | schedule | queue | payload', got " + columns.length
                    + " column(s)");
        }
        String payload = columns[3].strip();
        if (payload.isEmpty()) {
            throw new ConfigException(where + ": the payload is empty (write {} for none)");
        }
        try {
            PayloadLimit.DEFAULT.check(payload);
            return Schedule.of(columns[0].strip(), columns[1].strip(), columns[2].strip(), payload);
        } catch (BatonException e) {
            throw new ConfigException(where + ": " + e.getMessage());
        }
    }
}
