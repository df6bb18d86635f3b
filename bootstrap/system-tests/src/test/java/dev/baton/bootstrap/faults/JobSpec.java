package dev.baton.bootstrap.faults;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Optional;

/**
 * One {@code orders} job as the test enqueues it, and what must become of it.
 *
 * @param failTimes attempts that fail (retryably) before one succeeds
 * @param poison    the job halts its worker (with {@code --demo-crash-on-poison}) or fails non-retryably
 * @param sleepMs   how long the handler works, inside the ledger transaction
 */
record JobSpec(String jobId, int failTimes, boolean poison, int sleepMs) {
    /** The job's type: the demo handler's name. */
    static final String TYPE = "orders";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The line {@code baton enqueue --file} reads. */
    String jsonLine() {
        ObjectNode line = JSON.createObjectNode().put("job_id", jobId).put("type", TYPE);
        line.set("payload", payloadNode());
        return line.toString();
    }

    /** The order the demo handler reads, as JSON text (what {@code <schema>.enqueue(...)} takes). */
    String payload() {
        return payloadNode().toString();
    }

    private ObjectNode payloadNode() {
        return JSON.createObjectNode()
                .put("orderId", "order-" + jobId)
                .put("failTimes", failTimes)
                .put("poison", poison)
                .put("sleepMs", sleepMs);
    }

    /** The dead-letter reason this job must end with, or empty when it must complete. */
    Optional<String> expectedDeath(int maxAttempts, boolean crashOnPoison) {
        if (poison) {
            return Optional.of(crashOnPoison ? "POISON" : "NON_RETRYABLE");
        }
        return failTimes >= maxAttempts ? Optional.of("EXHAUSTED") : Optional.empty();
    }
}
