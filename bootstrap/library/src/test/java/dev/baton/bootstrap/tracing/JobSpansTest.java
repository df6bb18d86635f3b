package dev.baton.bootstrap.tracing;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.baton.application.handler.JobHandler;
import dev.baton.application.handler.NonRetryableException;
import dev.baton.application.port.in.RedriveDeadLettersUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.BatonBuilder;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigLoader;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.DeadLetterSelection;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.opentelemetry.api.GlobalOpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Scope;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * Spans of jobs on real Redis and PostgreSQL (exactly-once), recorded by the OpenTelemetry SDK's in-memory exporter:
 * the trace context travels from the producer to the worker on the stream entry, through retries and dead letters.
 */
class JobSpansTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("baton.job.outcome");
    private static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("baton.job.attempt");

    private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
    private final OpenTelemetrySdk sdk = OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().addSpanProcessor(SimpleSpanProcessor.create(exporter))
                    .build())
            .build();
    private final QueueName queue = QueueName.of(TestEndpoints.unique("traced").replace('_', '-'));
    private final List<SpanContext> currentInHandler = new CopyOnWriteArrayList<>();
    private Baton baton;

    @AfterEach
    void close() {
        if (baton != null) {
            baton.close();
        }
        sdk.close();
        GlobalOpenTelemetry.resetForTest();
    }

    @Test
    void aProcessedJobsSpanIsAChildOfItsEnqueueSpanViaTheEntry() {
        baton = build(builder -> builder.openTelemetry(sdk), context -> Optional.of("done"));
        baton.enqueue(queue, JobId.of("order-1"), "{}");
        SpanData send = single(SpanKind.PRODUCER);
        assertThat(entryFields()).containsEntry("traceparent", traceparent(send.getSpanContext()));

        baton.start(queue.value());
        SpanData process = attempts(1).get(0);

        assertThat(send.getName()).isEqualTo("send " + queue.value());
        assertThat(send.getParentSpanContext().isValid()).isFalse();
        assertThat(process.getName()).isEqualTo("process " + queue.value());
        assertThat(process.getTraceId()).isEqualTo(send.getTraceId());
        assertThat(process.getParentSpanId()).isEqualTo(send.getSpanId());
        assertThat(process.getLinks()).isEmpty();
        for (SpanData span : List.of(send, process)) {
            assertThat(span.getAttributes().asMap()).containsEntry(AttributeKey.stringKey("messaging.system"),
                    "baton").containsEntry(AttributeKey.stringKey("messaging.destination.name"), queue.value())
                    .containsEntry(AttributeKey.stringKey("messaging.message.id"), "order-1");
        }
        assertThat(process.getAttributes().get(ATTEMPT)).isEqualTo(1L);
        assertThat(process.getAttributes().get(OUTCOME)).isEqualTo("completed");
        assertThat(process.getStatus().getStatusCode()).isEqualTo(StatusCode.UNSET);
        assertThat(currentInHandler).as("the handler runs in its attempt's span")
                .containsExactly(process.getSpanContext());
    }

    @Test
    void aRetrysSpanIsAChildOfTheEnqueueSpanLinkedToTheFirstAttempts() {
        baton = build(builder -> builder.openTelemetry(sdk), context -> {
            if (context.attempt() < 3) {
                throw new IllegalStateException("attempt " + context.attempt() + " fails");
            }
            return Optional.empty();
        });
        baton.enqueue(queue, JobId.of("flaky-1"), "{}");
        baton.start(queue.value());

        List<SpanData> attempts = attempts(3);
        SpanData send = single(SpanKind.PRODUCER);

        assertThat(attempts).extracting(span -> span.getAttributes().get(ATTEMPT)).containsExactly(1L, 2L, 3L);
        assertThat(attempts).extracting(span -> span.getAttributes().get(OUTCOME))
                .containsExactly("retried", "retried", "completed");
        assertThat(attempts).allSatisfy(span -> assertThat(span.getParentSpanId()).isEqualTo(send.getSpanId()));
        assertThat(attempts.get(0).getLinks()).isEmpty();
        assertThat(attempts.subList(1, 3)).allSatisfy(span -> assertThat(span.getLinks()).singleElement()
                .satisfies(link -> assertThat(link.getSpanContext().getSpanId())
                        .isEqualTo(attempts.get(0).getSpanId())));
        assertThat(attempts.get(0).getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(attempts.get(0).getEvents()).extracting(EventData::getName).containsExactly("exception");
    }

    @Test
    void aDeadJobsSpanRecordsTheErrorAndItsRedriveStaysInTheTrace() {
        AtomicBoolean fixed = new AtomicBoolean(false);
        baton = build(builder -> builder.openTelemetry(sdk), context -> {
            if (!fixed.get()) {
                throw new NonRetryableException("card declined");
            }
            return Optional.empty();
        });
        baton.enqueue(queue, JobId.of("doomed-1"), "{}");
        baton.start(queue.value());
        SpanData dead = attempts(1).get(0);

        assertThat(dead.getAttributes().get(OUTCOME)).isEqualTo("dead_lettered");
        assertThat(dead.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(dead.getStatus().getDescription()).isEqualTo("card declined");
        assertThat(dead.getAttributes().get(AttributeKey.stringKey("error.type")))
                .isEqualTo(NonRetryableException.class.getName());
        assertThat(dead.getEvents()).singleElement().satisfies(event -> assertThat(event.getAttributes()
                .get(AttributeKey.stringKey("exception.message"))).isEqualTo("card declined"));

        fixed.set(true);
        baton.use(RedriveDeadLettersUseCase.class).redrive(new RedriveDeadLettersUseCase.Command(queue,
                new DeadLetterSelection.All()));
        SpanData redriven = attempts(2).get(1);

        assertThat(redriven.getParentSpanId()).isEqualTo(single(SpanKind.PRODUCER).getSpanId());
        assertThat(redriven.getAttributes().get(OUTCOME)).isEqualTo("completed");
    }

    @Test
    void aJobEnqueuedInsideACallersSpanJoinsItsTrace() {
        baton = build(builder -> builder.openTelemetry(sdk), context -> Optional.empty());
        Span checkout = sdk.getTracer("shop").spanBuilder("checkout").startSpan();
        try (Scope ignored = checkout.makeCurrent()) {
            baton.enqueue(queue, JobId.of("order-2"), "{}");
        } finally {
            checkout.end();
        }
        baton.start(queue.value());
        SpanData process = attempts(1).get(0);

        SpanData send = single(SpanKind.PRODUCER);
        assertThat(send.getParentSpanId()).isEqualTo(checkout.getSpanContext().getSpanId());
        assertThat(process.getTraceId()).isEqualTo(checkout.getSpanContext().getTraceId());
    }

    @Nested
    class WithoutABuilderCall {
        @Test
        void itUsesTheGlobalOpenTelemetryEvenOneSetAfterItsFirstJob() {
            baton = build(UnaryOperator.identity(), context -> Optional.empty());
            baton.enqueue(queue, JobId.of("before-sdk"), "{}");

            GlobalOpenTelemetry.set(sdk); // Baton only peeked (getOrNoop): the application may still install its SDK
            baton.enqueue(queue, JobId.of("after-sdk"), "{}");
            baton.start(queue.value());

            attempts(2);
            assertThat(spans(SpanKind.PRODUCER)).singleElement().satisfies(send -> assertThat(send.getAttributes()
                    .get(AttributeKey.stringKey("messaging.message.id"))).isEqualTo("after-sdk"));
            assertThat(entryFields()).doesNotContainKey("traceparent");
        }
    }

    private Baton build(UnaryOperator<BatonBuilder> tracing, JobHandler handler) {
        BatonConfig config = ConfigLoader.load(Map.of("BATON_SCHEMA", TestEndpoints.unique("traced"),
                "BATON_BACKOFF_INITIAL", "50ms", "BATON_BACKOFF_MAX", "200ms", "BATON_MAX_ATTEMPTS", "3",
                "BATON_ADMIN_ADDRESS", "off"), Optional.empty(), Map.of());
        return tracing.apply(Baton.builder().config(config).set(REDIS_URI, TestEndpoints.redisUri())
                .set(JDBC_URL, TestEndpoints.jdbcUrl()).shutdownHook(false)
                .handler(queue.value(), context -> {
                    currentInHandler.add(Span.current().getSpanContext());
                    return handler.handle(context);
                })).build();
    }

    private List<SpanData> spans(SpanKind kind) {
        return exporter.getFinishedSpanItems().stream().filter(span -> span.getKind() == kind).toList();
    }

    private SpanData single(SpanKind kind) {
        List<SpanData> spans = spans(kind);
        assertThat(spans).hasSize(1);
        return spans.get(0);
    }

    /** Waits for {@code count} attempts' spans to end. */
    private List<SpanData> attempts(int count) {
        return await().atMost(WAIT).until(() -> spans(SpanKind.CONSUMER), spans -> spans.size() == count);
    }

    private static String traceparent(SpanContext context) {
        return "00-" + context.getTraceId() + "-" + context.getSpanId() + "-" + context.getTraceFlags().asHex();
    }

    /** The fields of the queue's first stream entry, as Redis holds them. */
    private Map<String, String> entryFields() {
        RedisClient client = RedisClient.create(TestEndpoints.redisUri());
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            return connection.sync().xrange("baton:{" + queue.value() + "}:stream", Range.unbounded()).get(0)
                    .getBody();
        } finally {
            client.shutdown();
        }
    }
}
