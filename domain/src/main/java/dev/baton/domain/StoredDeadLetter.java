package dev.baton.domain;

import static dev.baton.domain.InvalidValueException.notNull;

/** A dead letter as the transport keeps it, under its own id (used to show, redrive or purge one). */
public record StoredDeadLetter(DeadLetterId id, DeadLetter letter) {
    public StoredDeadLetter {
        notNull(id, "dead letter id");
        notNull(letter, "dead letter");
    }
}
