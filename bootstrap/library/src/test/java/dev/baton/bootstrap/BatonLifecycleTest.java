package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.baton.application.port.in.InspectQueueUseCase;
import dev.baton.application.port.in.RunWorkerUseCase;
import dev.baton.application.port.in.RunningWorker;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.testing.InMemoryAdapters;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The embedding API's lifecycle: what start() refuses, what build() refuses, the shutdown hook, await(). */
class BatonLifecycleTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String QUEUE = "emails";

    private final InMemoryAdapters adapters = new InMemoryAdapters(Clock.systemUTC());

    @Test
    void startRefusesAWorkerThatCouldRunNoJobAsTheCliDoes() {
        // the platform loader finds none of the test classpath's ServiceLoader handlers
        try (Baton none = builder().handlerClassLoader(ClassLoader.getPlatformClassLoader()).build()) {
            assertThatThrownBy(() -> none.start("some-queue")).isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("no handler is registered, so a worker on [some-queue] could run no job");
        }
        try (Baton baton = builder().handler(QUEUE, context -> Optional.empty()).build()) {
            assertThatThrownBy(() -> baton.start(new RunWorkerUseCase.Command(List.of(QueueName.of(QUEUE)),
                    Baton.defaultConsumer(), 1, Optional.of("nope")))).isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("unknown handler 'nope'; known handlers: ").hasMessageContaining("emails");
            assertThat(baton.shutdownHook()).as("nothing started").isEmpty();
        }
    }

    @Test
    void buildRefusesAJdbcUrlThatIsNotPostgresNamingWhereItCameFrom() {
        assertThatThrownBy(() -> builder().set(JDBC_URL, "jdbc:mysql://app:s3cret@db/app").build())
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("Baton.builder().set(JDBC_URL, 'jdbc:mysql://app:****@db/app'): must be a "
                        + "PostgreSQL JDBC URL")
                .hasMessageNotContaining("s3cret");
        assertThatThrownBy(() -> BatonConfig.defaults().with(JDBC_URL, "jdbc:h2:mem:app"))
                .isInstanceOf(ConfigException.class)
                .hasMessageStartingWith("BatonConfig.with(JDBC_URL, 'jdbc:h2:mem:app'): must be");
    }

    @Test
    void theShutdownHookStopsGracefullyAndAcknowledgesWhatCommitted() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Baton baton = builder().handler(QUEUE, context -> {
            running.countDown();
            release.await();
            return Optional.of("sent");
        }).build();
        baton.enqueue(QueueName.of(QUEUE), JobId.of("welcome-1"), "{}");
        RunningWorker worker = baton.start(QUEUE);
        assertThat(running.await(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        Thread hook = baton.shutdownHook().orElseThrow();

        // run as the JVM would at exit, without ending this one
        CompletableFuture<Void> exiting = CompletableFuture.runAsync(hook);
        await().atMost(WAIT).until(() -> !worker.isRunning());
        release.countDown();
        exiting.get(WAIT.toSeconds(), TimeUnit.SECONDS);

        assertThat(adapters.ledger().find(QueueName.of(QUEUE), JobId.of("welcome-1"))).isPresent();
        assertThat(baton.use(InspectQueueUseCase.class).inspect(new InspectQueueUseCase.Command(QueueName.of(QUEUE)))
                .stats().pending()).as("acknowledged before the hook returned").isZero();
        assertThat(Runtime.getRuntime().removeShutdownHook(hook)).as("closing unregistered it").isFalse();
        assertThat(baton.shutdownHook()).isEmpty();
    }

    @Test
    void noHookIsRegisteredWhenTheBuilderTurnsItOff() {
        try (Baton baton = builder().handler(QUEUE, context -> Optional.empty()).shutdownHook(false).build()) {
            baton.start(QUEUE);

            assertThat(baton.shutdownHook()).isEmpty();
        }
    }

    @Test
    void awaitBlocksUntilTheWorkersAreStopped() throws Exception {
        Baton baton = builder().handler(QUEUE, context -> Optional.empty()).build();
        RunningWorker worker = baton.start(QUEUE);

        CompletableFuture<Void> batonStopped = CompletableFuture.runAsync(() -> awaitQuietly(baton::await));
        CompletableFuture<Void> workerStopped = CompletableFuture.runAsync(() -> awaitQuietly(worker::await));
        await().during(Duration.ofMillis(300)).atMost(WAIT)
                .until(() -> !batonStopped.isDone() && !workerStopped.isDone());
        baton.close();

        CompletableFuture.allOf(batonStopped, workerStopped).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertThat(worker.isRunning()).isFalse();
    }

    private BatonBuilder builder() {
        return Baton.builder().adapters(adapters.ports());
    }

    private interface Blocking {
        void run() throws InterruptedException;
    }

    private static void awaitQuietly(Blocking blocking) {
        try {
            blocking.run();
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
