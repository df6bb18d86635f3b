package dev.baton.bootstrap.examples;

import dev.baton.bootstrap.BatonBuilder;
import dev.baton.domain.CatchUp;
import dev.baton.domain.Schedule;

/** The shop's periodic jobs, in code: every instance that runs a worker fires them, each fire time's job once. */
public final class ShopSchedules {
    /** Every night at two, Berlin time; nights missed while no instance ran are made up once. */
    public static final Schedule NIGHTLY_REPORT =
            Schedule.of("nightly-report", "TZ=Europe/Berlin 0 2 * * *", "reports", "{\"kind\":\"nightly\"}");

    /** Every ten seconds; ticks missed while no instance ran are not worth running late. */
    public static final Schedule TICK = Schedule.of("tick", "every 10s", "metrics", "{}").withCatchUp(CatchUp.skip());

    private ShopSchedules() {
    }

    public static BatonBuilder declare(BatonBuilder builder) {
        return builder.schedule(NIGHTLY_REPORT).schedule(TICK);
    }
}
