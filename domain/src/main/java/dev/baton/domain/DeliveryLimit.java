package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.require;

/**
 * How many times one stream entry may be delivered without finishing before it counts as poison. Deliveries that
 * never finish are crashes, lost leases or kills: unlike handler failures, they never reach the retry policy.
 */
public record DeliveryLimit(int maxDeliveries) {
    public static final DeliveryLimit DEFAULT = new DeliveryLimit(5);

    public DeliveryLimit {
        require(maxDeliveries >= 1, "delivery limit must be at least 1, got " + maxDeliveries);
    }

    public boolean exceededBy(long deliveryCount) {
        return deliveryCount > maxDeliveries;
    }
}
