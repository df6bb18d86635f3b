package dev.baton.bootstrap.examples;

import static dev.baton.bootstrap.config.Setting.ADMIN_ADDRESS;
import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.examples.ShippingJobs.ShipParcel;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.QueueName;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The tracing example of docs/OPERATIONS.md, on real Redis and PostgreSQL, its spans in the SDK's memory. */
class TracedShippingTest {

    @Test
    void theCheckoutsTraceRunsViaTheSendSpanToTheAttemptThatShipped() {
        InMemorySpanExporter exporter = InMemorySpanExporter.create();
        List<SpanData> finished;
        QueueName queue = QueueName.of(TestEndpoints.unique("traced-shop").replace('_', '-'));
        try (OpenTelemetrySdk sdk = OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder()
                .addSpanProcessor(SimpleSpanProcessor.create(exporter)).build()).build();
             Baton baton = TracedShipping.traced(Baton.builder().set(REDIS_URI, TestEndpoints.redisUri())
                     .set(JDBC_URL, TestEndpoints.jdbcUrl()).set(SCHEMA, TestEndpoints.unique("traced_shop"))
                     .set(ADMIN_ADDRESS, "off").shutdownHook(false), sdk).build()) {
            new TracedShipping(baton, sdk, queue).checkout(new ShipParcel("7001", 900, false));
            RunningWorker worker = baton.start(new RunWorkerUseCase.Command(List.of(queue), Baton.defaultConsumer(),
                    1, Optional.of(ShippingJobs.SHIP_PARCEL.name())));

            await().atMost(Duration.ofSeconds(30)).until(() -> worker.counters().completed() == 1);
            finished = await().atMost(Duration.ofSeconds(30)).until(exporter::getFinishedSpanItems,
                    items -> items.size() == 3); // read before the SDK's shutdown empties the exporter
        }

        Map<String, SpanData> spans = finished.stream()
                .collect(Collectors.toMap(span -> span.getName().split(" ")[0], Function.identity()));
        assertThat(spans).containsOnlyKeys("checkout", "send", "process");
        assertThat(spans.get("send").getParentSpanId()).isEqualTo(spans.get("checkout").getSpanId());
        assertThat(spans.get("process").getParentSpanId()).isEqualTo(spans.get("send").getSpanId());
        assertThat(spans.get("process").getTraceId()).isEqualTo(spans.get("checkout").getTraceId());
        assertThat(spans.get("process").getAttributes().get(AttributeKey.stringKey("shop.order_id")))
                .isEqualTo("7001");
        assertThat(spans.get("process").getAttributes().get(AttributeKey.stringKey("baton.job.type")))
                .isEqualTo("ship-parcel");
    }
}
