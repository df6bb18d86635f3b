package dev.baton.bootstrap;

import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;

import dev.baton.application.port.in.LocateJobUseCase.Whereabouts;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A small application that forgets {@code close()}: it enqueues jobs and returns from {@code main} once the ledger
 * has all but the last, whose handler is still at work (half a second of it), and whose acknowledgements may still be
 * on the way. Run in a child JVM by {@link ForgottenCloseTest}. Arguments: redis URI, JDBC URL, schema, queue, job
 * count, shutdown hook on/off.
 */
public final class ForgottenCloseMain {
    private ForgottenCloseMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        String queue = args[3];
        int count = Integer.parseInt(args[4]);
        String last = "job-" + (count - 1);
        CountDownLatch lastStarted = new CountDownLatch(1);
        Baton baton = Baton.builder().set(REDIS_URI, args[0]).set(JDBC_URL, args[1]).set(SCHEMA, args[2])
                .handler(queue, context -> {
                    if (context.job().id().value().equals(last)) {
                        lastStarted.countDown();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(500)); // work still running at exit
                    }
                    return Optional.of("done");
                })
                .shutdownHook(Boolean.parseBoolean(args[5]))
                .build();
        for (int i = 0; i < count; i++) {
            baton.enqueue(QueueName.of(queue), JobId.of("job-" + i), "{}");
        }
        baton.start(queue);
        lastStarted.await();
        for (int i = 0; i < count - 1; i++) {
            while (!(baton.job(queue, "job-" + i) instanceof Whereabouts.Completed)) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        }
        // no close(): main returns with the last job running, the others committed
    }
}
