package dev.baton.bootstrap.faults;

import static dev.baton.bootstrap.faults.QueueProbe.bytes;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Fault 7: entries no Baton producer would write, appended raw (XADD) among real jobs: each is dead-lettered with
 * its data (MALFORMED, or NO_HANDLER for a job of a type nobody handles) and the workers keep going.
 */
@Tag("faults")
class MalformedInputIT {
    private static final String ORDER = "{\"orderId\":\"raw\"}";
    private static final byte[] NOT_UTF8 = {'{', (byte) 0xC3, '(', (byte) 0xFF, '}'};

    @Test
    void badEntriesAreDeadLetteredWithTheirDataAndWorkersKeepGoing() {
        try (Scenario scenario = Scenario.onSharedServers("malformed", Map.of())) {
            scenario.enqueue(JobMix.plain().sleepingUpTo(10), SoakSize.scaled(300));
            WorkerFleet fleet = scenario.startWorkers(2);
            Chaos chaos = new Chaos(scenario);
            chaos.awaitProgress(0.2);
            Map<String, Map<byte[], byte[]>> bad = badEntries();
            bad.values().forEach(scenario.probe()::appendRaw);
            bad.keySet().forEach(kind -> scenario.faults().count("raw entry: " + kind));
            scenario.enqueue(JobMix.plain(), SoakSize.scaled(100));

            scenario.verify(Duration.ofMinutes(3), fleet);

            List<Map<String, String>> letters = scenario.probe().deadLetters();
            assertThat(letters).hasSize(bad.size());
            assertThat(letter(letters, "payload", "{\"orderId\":\"no-job-id\"}"))
                    .containsEntry(DeadLetterFields.REASON, "MALFORMED");
            assertThat(letter(letters, "job_id", "raw-missing-payload"))
                    .containsEntry(DeadLetterFields.REASON, "MALFORMED");
            assertThat(letter(letters, "job_id", "raw-bad-utf8"))
                    .containsEntry(DeadLetterFields.REASON, "MALFORMED");
            assertThat(scenario.probe().deadLetterBytes("raw-bad-utf8", "payload")).as("the bytes as they came")
                    .hasValueSatisfying(raw -> assertThat(raw).containsExactly(NOT_UTF8));
            assertThat(letter(letters, "job_id", "raw-bad-attempt"))
                    .containsEntry(DeadLetterFields.REASON, "MALFORMED")
                    .containsEntry("attempt", "many");
            assertThat(letter(letters, "job_id", "raw-2mib-payload"))
                    .containsEntry(DeadLetterFields.REASON, "MALFORMED")
                    .hasEntrySatisfying("payload", p -> assertThat(p).hasSize(2 * 1024 * 1024));
            assertThat(fleet.workers()).allMatch(WorkerProcess::isAlive);
        }
    }

    /**
     * A job whose type no handler serves must not run under the worker's default handler ({@code --handler}, which
     * serves jobs <em>without</em> a type): a {@code refund} sent to an {@code orders} worker would ship an order.
     * With no grace to wait for a worker that has its handler, it must be dead-lettered as NO_HANDLER with its data,
     * and nothing committed.
     */
    @Test
    void aJobOfAnUnknownTypeIsDeadLetteredNotRunByTheDefaultHandler() {
        try (Scenario scenario = Scenario.onSharedServers("unknown-type", Map.of("BATON_NO_HANDLER_GRACE", "0s"))) {
            WorkerFleet fleet = scenario.startWorkers(1);
            scenario.probe().appendRaw(Map.of(bytes("job_id"), bytes("raw-unknown-type"), bytes("payload"),
                    bytes(ORDER), bytes("type"), bytes("no-such-handler")));
            scenario.faults().count("raw entry: unknown job type");
            scenario.enqueue(JobMix.plain(), 10);

            scenario.verify(Duration.ofMinutes(2), fleet);

            assertThat(scenario.ledger().isCompleted("raw-unknown-type")).as("run by the default handler").isFalse();
            assertThat(letter(scenario.probe().deadLetters(), "job_id", "raw-unknown-type"))
                    .containsEntry(DeadLetterFields.REASON, "NO_HANDLER")
                    .containsEntry("type", "no-such-handler")
                    .containsEntry("payload", ORDER);
        }
    }

    private static Map<String, Map<byte[], byte[]>> badEntries() {
        byte[] huge = new byte[2 * 1024 * 1024];
        Arrays.fill(huge, (byte) 'x');
        Map<String, Map<byte[], byte[]>> entries = new LinkedHashMap<>();
        entries.put("missing job_id", Map.of(bytes("payload"), bytes("{\"orderId\":\"no-job-id\"}")));
        entries.put("missing payload", Map.of(bytes("job_id"), bytes("raw-missing-payload")));
        entries.put("non-UTF-8 payload", Map.of(bytes("job_id"), bytes("raw-bad-utf8"),
                bytes("payload"), NOT_UTF8));
        entries.put("non-numeric attempt", Map.of(bytes("job_id"), bytes("raw-bad-attempt"),
                bytes("payload"), bytes(ORDER), bytes("attempt"), bytes("many")));
        entries.put("2 MiB payload", Map.of(bytes("job_id"), bytes("raw-2mib-payload"), bytes("payload"), huge));
        return entries;
    }

    private static Map<String, String> letter(List<Map<String, String>> letters, String field, String value) {
        return letters.stream().filter(l -> value.equals(l.get(field))).findFirst()
                .orElseThrow(() -> new AssertionError("no dead letter with " + field + "=" + value + " among "
                        + letters.stream().map(l -> l.get("job_id")).toList()));
    }
}
