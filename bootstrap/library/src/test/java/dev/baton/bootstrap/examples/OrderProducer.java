package dev.baton.bootstrap.examples;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Duration;

/** The producer side: enqueue jobs keyed by an idempotency key of your domain. */
public final class OrderProducer {
    private static final QueueName ORDERS = QueueName.of("shop-orders");

    private final Baton baton;

    public OrderProducer(Baton baton) {
        this.baton = baton;
    }

    /** The order id is the job id: enqueuing the same order twice still ships it once. */
    public Job orderPlaced(String orderId, boolean express) {
        return baton.enqueue(ORDERS, JobId.of("ship-" + orderId),
                "{\"orderId\":\"" + orderId + "\",\"express\":" + express + "}");
    }

    /** A job due later: a reminder one day after the order. */
    public Job remindLater(String orderId) {
        return baton.enqueue(EnqueueJobUseCase.Command.now(QueueName.of("shop-reminders"),
                JobId.of("remind-" + orderId), "{\"orderId\":\"" + orderId + "\"}").after(Duration.ofDays(1)));
    }
}
