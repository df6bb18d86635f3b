package dev.baton.bootstrap.examples;

import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.BatonBuilder;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.Optional;
import org.jdbi.v3.core.Handle;

/** Typed jobs: producers enqueue a record, the handler receives it; on the stream it is `type` + JSON `payload`. */
public final class ShippingJobs {
    /** The job's arguments. Every component must be in the payload; unknown fields are ignored. */
    public record ShipParcel(String orderId, int weightGrams, boolean express) {
    }

    /** The wire name is the entry's type: keep it stable, producers in other languages write it too. */
    public static final JobType<ShipParcel> SHIP_PARCEL = JobType.of("ship-parcel", ShipParcel.class);

    private final Baton baton;
    private final QueueName queue;

    public ShippingJobs(Baton baton, QueueName queue) {
        this.baton = baton;
        this.queue = queue;
    }

    /** Registers the typed handler: it gets the bound record, and the ledger's transaction as any handler does. */
    public static BatonBuilder handlers(BatonBuilder builder) {
        return builder.handler(SHIP_PARCEL, (parcel, context) -> {
            String carrier = parcel.express() || parcel.weightGrams() < 500 ? "courier" : "post";
            context.unwrap(Handle.class).createUpdate(
                            "INSERT INTO shop_shipments (order_id, job_id, carrier) VALUES (:order, :job, :carrier)")
                    .bind("order", parcel.orderId())
                    .bind("job", context.job().id().value())
                    .bind("carrier", carrier)
                    .execute();
            return Optional.of("shipped by " + carrier);
        });
    }

    /** No JSON by hand: Baton writes the record as the payload and the type's name as the job's type. */
    public Job ship(ShipParcel parcel) {
        return baton.enqueue(SHIP_PARCEL, queue, JobId.of("parcel-" + parcel.orderId()), parcel);
    }
}
