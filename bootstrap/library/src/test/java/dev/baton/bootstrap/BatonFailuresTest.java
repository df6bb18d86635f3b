package dev.baton.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.json.Json;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.DeadLetter;
import dev.baton.domain.DeadLetterReason;
import dev.baton.domain.ErrorTrace;
import dev.baton.domain.JobId;
import dev.baton.domain.JobSighting;
import dev.baton.domain.QueueName;
import dev.baton.domain.StoredDeadLetter;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.slf4j.LoggerFactory;

/**
 * A job that fails for good is seen: one WARN line, its trace at DEBUG and kept with the letter, heard by a listener.
 */
class BatonFailuresTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private final Logger finisherLog = (Logger) LoggerFactory.getLogger(
            "dev.baton.application.service.worker.Finisher");
    private final Logger listenerLog = (Logger) LoggerFactory.getLogger(DeadLetterListener.class);
    private Level finisherLevel;

    @BeforeEach
    void captureLogs() {
        log.start();
        finisherLevel = finisherLog.getLevel();
        finisherLog.setLevel(Level.DEBUG);
        finisherLog.addAppender(log);
        listenerLog.addAppender(log);
    }

    @AfterEach
    void releaseLogs() {
        finisherLog.detachAppender(log);
        finisherLog.setLevel(finisherLevel);
        listenerLog.detachAppender(log);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.baton.bootstrap.BatonScenarioTest#wirings")
    void aJobThatAlwaysFailsIsDeadLetteredOnceItsTraceLoggedAndHeard(String name,
                                                                     Function<BatonBuilder, BatonBuilder> wiring) {
        QueueName queue = QueueName.of(TestEndpoints.unique("failures").replace('_', '-'));
        List<DeadLetter> heard = new CopyOnWriteArrayList<>();

        try (Baton baton = wiring.apply(Baton.builder().config(BatonScenarioTest.threeQuickAttempts("failures"))
                        .handler(queue.value(), context -> {
                            if (context.job().id().value().startsWith("broken")) {
                                throw new IllegalStateException("always broken\nDetail: a second line");
                            }
                            return Optional.empty();
                        })
                        .onDeadLetter(letter -> {
                            throw new IllegalArgumentException("a listener with a bug");
                        })
                        .onDeadLetter(heard::add))
                .build()) {
            baton.enqueue(queue, JobId.of("broken-1"), "{}");
            RunningWorker worker = baton.start(queue.value());
            await().atMost(WAIT).until(() -> worker.counters().deadLettered() == 1);
            baton.enqueue(queue, JobId.of("fine-1"), "{}");
            await().atMost(WAIT).until(() -> worker.counters().completed() == 1);

            assertThat(heard).singleElement().satisfies(letter -> {
                assertThat(letter.reason()).isEqualTo(DeadLetterReason.EXHAUSTED);
                assertThat(letter.attempts()).isEqualTo(3);
                assertThat(letter.trace()).map(ErrorTrace::text).hasValueSatisfying(trace -> assertThat(trace)
                        .startsWith("java.lang.IllegalStateException: always broken\nDetail: a second line\n\tat ")
                        .contains(BatonFailuresTest.class.getName()));
            });
            // the ledger's record comes first, with where Redis holds the job: its dead letter
            StoredDeadLetter stored = ((JobSighting.Dead) ((Whereabouts.DeadLettered)
                    baton.job(queue.value(), "broken-1")).sighting().orElseThrow()).deadLetter();
            assertThat(stored.letter().trace()).as("kept by the transport").isEqualTo(heard.get(0).trace());
            Map<String, Object> json = Json.deadLetter(stored);
            assertThat(json).containsEntry("attempts", 3).containsEntry("trace", heard.get(0).trace().get().text());
            assertThat(((Map<?, ?>) json.get("job")).containsKey("attempt")).isFalse();
        }
        List<ILoggingEvent> warnings = log.list.stream().filter(event -> event.getLevel() == Level.WARN).toList();
        // one line: no stack trace, no second line of the message (an operator greps and alerts on it)
        assertThat(warnings).filteredOn(event -> event.getFormattedMessage().startsWith("job dead-lettered"))
                .singleElement().satisfies(event -> {
                    assertThat(event.getFormattedMessage()).isEqualTo("job dead-lettered reason=EXHAUSTED queue="
                            + queue + " job=broken-1 attempts=3 error=java.lang.IllegalStateException: always"
                            + " broken …");
                    assertThat(event.getThrowableProxy()).as("the stack trace goes to DEBUG").isNull();
                });
        assertThat(log.list).filteredOn(event -> event.getLevel() == Level.DEBUG
                        && event.getFormattedMessage().startsWith("the dead-lettered job's stack trace"))
                .singleElement().satisfies(event -> assertThat(event.getThrowableProxy().getClassName())
                        .isEqualTo("java.lang.IllegalStateException"));
        assertThat(warnings).filteredOn(event -> event.getFormattedMessage().startsWith("onDeadLetter listener"))
                .singleElement().satisfies(event ->
                        assertThat(event.getThrowableProxy().getMessage()).isEqualTo("a listener with a bug"));
    }
}
