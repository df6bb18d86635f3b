package dev.baton.adapters.redis;

import static dev.baton.adapters.redis.Calls.call;
import static dev.baton.adapters.redis.RedisValues.number;
import static dev.baton.adapters.redis.Utf8.ascii;
import static dev.baton.adapters.redis.Utf8.bytes;

import dev.baton.adapters.redis.LuaScripts.Script;
import dev.baton.application.port.out.ScheduleFires;
import dev.baton.domain.Job;
import dev.baton.domain.Schedule;
import dev.baton.domain.ScheduleState;
import io.lettuce.core.KeyValue;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Schedule watermarks in Redis: a hash per schedule ({@code through}, {@code last_fire}, epoch ms) beside the stream
 * of the partition its jobs go to, chosen by the schedule's name, so that one script appends a fire time's job and
 * moves the watermark atomically, in one hash slot. However many schedulers fire a time, one append wins.
 */
final class RedisScheduleFires implements ScheduleFires {
    private final RedisClusterCommands<byte[], byte[]> redis;
    private final LuaScripts scripts;
    private final Partitions partitions;
    private final WireMapping wire;

    RedisScheduleFires(RedisClusterCommands<byte[], byte[]> redis, LuaScripts scripts, Partitions partitions,
                       WireMapping wire) {
        this.redis = redis;
        this.scripts = scripts;
        this.partitions = partitions;
        this.wire = wire;
    }

    /** The partition of a schedule's jobs: all its fires travel in one partition, in fire-time order. */
    private QueueKeys keysOf(Schedule schedule, String operation) {
        QueueLayout layout = partitions.layout(operation, schedule.queue());
        return layout.partition(QueueLayout.partitionOf("schedule:" + schedule.name(), layout.partitions()));
    }

    @Override
    public ScheduleState state(Schedule schedule) {
        QueueKeys keys = keysOf(schedule, "read schedule");
        List<KeyValue<byte[], byte[]>> values = call("read schedule", schedule.queue(),
                () -> redis.hmget(keys.schedule(schedule.name()), bytes("through"), bytes("last_fire")));
        return new ScheduleState(instant(values.get(0)), instant(values.get(1)));
    }

    @Override
    public boolean fire(Schedule schedule, Instant fireTime) {
        Job job = schedule.jobAt(fireTime);
        List<byte[]> args = new ArrayList<>();
        args.add(number(fireTime.toEpochMilli()));
        wire.publishedFields(job).forEach(field -> args.add(bytes(field)));
        partitions.ensureDeclared(schedule.queue());
        QueueKeys keys = keysOf(schedule, "fire schedule");
        Long appended = call("fire schedule", schedule.queue(), () -> scripts.run(Script.FIRE_SCHEDULE,
                ScriptOutputType.INTEGER, new byte[][] {keys.schedule(schedule.name()), keys.stream()},
                args.toArray(byte[][]::new)));
        return appended == 1;
    }

    @Override
    public void settle(Schedule schedule, Instant through) {
        QueueKeys keys = keysOf(schedule, "settle schedule");
        call("settle schedule", schedule.queue(), () -> scripts.<Long>run(Script.SETTLE_SCHEDULE,
                ScriptOutputType.INTEGER, new byte[][] {keys.schedule(schedule.name())},
                number(through.toEpochMilli())));
    }

    private static Optional<Instant> instant(KeyValue<byte[], byte[]> value) {
        return value.optional().map(raw -> Instant.ofEpochMilli(Long.parseLong(ascii(raw))));
    }
}
