package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.baton.bootstrap.testing.TestEndpoints;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code baton enqueue} with BATON_ENQUEUE_THROUGH_OUTBOX=on fills the outbox that {@code baton stats} shows. */
class OutboxStatsCliTest {

    @Test
    void statsShowTheOutboxsWaitingRowsAsATableAndAsJson() throws Exception {
        String schema = TestEndpoints.unique("outbox_stats");
        String queue = schema.replace('_', '-');
        // no relay anywhere: the rows wait
        InJvmCli cli = QueuePartitionsCliTest.cli(Map.of("BATON_SCHEMA", schema, "BATON_ENQUEUE_THROUGH_OUTBOX", "on",
                "BATON_RELAY", "off"));
        for (String id : new String[] {"o-1", "o-2"}) {
            InJvmCli.Result enqueued = cli.run("enqueue", "--queue", queue, "--job-id", id, "--payload", "{}");
            assertThat(enqueued.exit()).as(enqueued.toString()).isZero();
        }

        InJvmCli.Result table = cli.run("stats", "--queue", queue);
        InJvmCli.Result json = cli.run("stats", "--queue", queue, "--json");

        assertThat(table.out()).containsPattern("OUTBOX-WAITING +OLDEST-WAITING +MALFORMED")
                .containsPattern("\\n2 +\\S+ +0");
        JsonNode outbox = new ObjectMapper().readTree(json.out()).get("outbox");
        assertThat(outbox.get("waiting").asLong()).isEqualTo(2);
        assertThat(outbox.get("malformed").asLong()).isZero();
        assertThat(cli.stats(queue).get("length").asLong()).as("nothing reached Redis").isZero();
    }
}
