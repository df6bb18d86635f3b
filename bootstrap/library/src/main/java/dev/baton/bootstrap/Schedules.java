package dev.baton.bootstrap;

import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.SchedulesFile;
import dev.baton.domain.Schedule;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The schedules given to a builder, in code and in files; names must be unique across them all. */
final class Schedules {
    private final List<Schedule> inCode = new ArrayList<>();
    private final List<Path> files = new ArrayList<>();

    void add(Schedule schedule) {
        inCode.add(schedule);
    }

    void addFile(Path file) {
        files.add(file);
    }

    /** @throws ConfigException for a bad file line, or a name given twice (naming where) */
    List<Schedule> all() {
        Map<String, Schedule> byName = new LinkedHashMap<>();
        inCode.forEach(schedule -> put(byName, schedule, "Baton.builder().schedule(...)"));
        files.forEach(file -> SchedulesFile.read(file).forEach(schedule -> put(byName, schedule, file.toString())));
        return List.copyOf(byName.values());
    }

    private static void put(Map<String, Schedule> byName, Schedule schedule, String origin) {
        if (byName.putIfAbsent(schedule.name().value(), schedule) != null) {
            throw new ConfigException(origin + ": schedule '" + schedule.name() + "' is declared twice");
        }
    }
}
