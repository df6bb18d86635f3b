package dev.baton.bootstrap.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.domain.QueueName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** One line of {@code baton enqueue --file}: a JSON object with job_id, payload and an optional type. */
class EnqueueLineTest {
    private static final QueueName QUEUE = QueueName.of("orders");

    @Test
    void aPayloadObjectIsSentAsCompactJsonAndATextPayloadAsItIs() {
        EnqueueJobUseCase.Command object = EnqueueCommand.parseLine(QUEUE,
                "{\"job_id\": \"o-1\", \"payload\": {\"orderId\": \"o-1\", \"items\": [1, 2.5, true, null]},"
                        + " \"type\": \"ship-order\"}");
        EnqueueJobUseCase.Command text = EnqueueCommand.parseLine(QUEUE,
                "{\"job_id\": \"o-2\", \"payload\": \"x y\"}");

        assertThat(object.id().value()).isEqualTo("o-1");
        assertThat(object.payload()).isEqualTo("{\"orderId\":\"o-1\",\"items\":[1,2.5,true,null]}");
        assertThat(object.type()).hasValue("ship-order");
        assertThat(text.payload()).isEqualTo("x y");
        assertThat(text.type()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            {"job_id": "a", "payload":                 | not JSON (Unexpected end-of-input
            [1, 2]                                     | expected a JSON object
            {"job_id": "a", "payload": "x", "at": 1}   | unknown field 'at' (known: job_id, payload, type)
            {"job_id": 7, "payload": "x"}              | job_id is required and must be a string
            {"job_id": "a", "payload": null}           | payload is required
            {"job_id": "a", "payload": "x", "type": 1} | type must be a string
            """)
    void aBadLineIsRefusedSayingWhy(String line, String problem) {
        assertThatThrownBy(() -> EnqueueCommand.parseLine(QUEUE, line)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(problem);
    }
}
