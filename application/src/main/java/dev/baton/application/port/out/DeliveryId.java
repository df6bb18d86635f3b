package dev.baton.application.port.out;

import java.util.Objects;

/** The transport's id of one delivery of a job (a Redis stream entry id); changes on every retry or redrive. */
public record DeliveryId(String value) {
    public DeliveryId {
        Objects.requireNonNull(value, "delivery id");
    }

    @Override
    public String toString() {
        return value;
    }
}
