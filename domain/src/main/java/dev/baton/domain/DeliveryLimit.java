package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.require;

/**
 * How many times one stream entry may run isolated (alone in its worker, as a suspect) without finishing before it
 * counts as poison. Deliveries that never finish are crashes, lost leases or kills: unlike handler failures, they
 * never reach the retry policy. Only isolated deliveries count: a job that merely shared a worker that died is not to
 * blame.
 */
public record DeliveryLimit(int maxDeliveries) {
    public static final DeliveryLimit DEFAULT = new DeliveryLimit(5);

    public DeliveryLimit {
        require(maxDeliveries >= 1, "delivery limit must be at least 1, got " + maxDeliveries);
    }

    /** @param deliveries the isolated deliveries, the one about to start included */
    public boolean exceededBy(long deliveries) {
        return deliveries > maxDeliveries;
    }
}
