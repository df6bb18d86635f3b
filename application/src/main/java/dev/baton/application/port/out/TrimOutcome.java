package dev.baton.application.port.out;

/**
 * What a trim did.
 *
 * @param removed   entries removed from the stream
 * @param heldBack  true when the safety bound (the oldest entry a consumer group still needs) stopped the trim short
 *                  of the retention: a backlog or a stuck pending entry
 * @param safeBound the lowest entry id that must stay, or empty text when nothing holds the trim back
 */
public record TrimOutcome(long removed, boolean heldBack, String safeBound) {
}
