package dev.baton.bootstrap.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.baton.application.port.in.EnqueueJobUseCase;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.testing.TestEndpoints;
import dev.baton.domain.JobId;
import dev.baton.domain.OutboxBacklog;
import dev.baton.domain.QueueName;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/** The auto-configuration's TransactionalOutbox writes in the Spring transaction of the caller, which decides. */
class TransactionalOutboxTest {
    private final String schema = TestEndpoints.unique("spring_outbox");
    private final QueueName queue = QueueName.of(schema.replace('_', '-'));

    @Test
    void anEnqueueCommitsAndRollsBackWithTheTransactionTemplate() {
        try (HikariDataSource dataSource = SpringLedgerTransactionTest.dataSource()) {
            runner(dataSource).run(context -> {
                assertThat(context).hasNotFailed();
                Baton baton = context.getBean(Baton.class);
                TransactionalOutbox outbox = context.getBean(TransactionalOutbox.class);
                TransactionTemplate transactions =
                        new TransactionTemplate(new DataSourceTransactionManager(dataSource));

                assertThatThrownBy(() -> transactions.executeWithoutResult(status -> {
                    outbox.enqueue(command("rolled-back"));
                    throw new IllegalStateException("payment declined");
                })).hasMessage("payment declined");
                assertThat(waiting(baton)).as("rolled back with the transaction").isZero();

                transactions.executeWithoutResult(status -> {
                    outbox.enqueue(command("committed"));
                    assertThat(waiting(baton)).as("not visible before the commit").isZero();
                });
                assertThat(waiting(baton)).isOne();

                outbox.enqueue(command("no-transaction"));
                assertThat(waiting(baton)).as("outside a transaction it autocommits").isEqualTo(2);
            });
        }
    }

    private EnqueueJobUseCase.Command command(String id) {
        return EnqueueJobUseCase.Command.now(queue, JobId.of(id), "{}");
    }

    private static long waiting(Baton baton) {
        return baton.outboxBacklog().map(OutboxBacklog::waiting).orElseThrow();
    }

    private ApplicationContextRunner runner(DataSource dataSource) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class))
                .withBean(DataSource.class, () -> dataSource)
                .withPropertyValues("baton.redis-uri=" + TestEndpoints.redisUri(), "baton.schema=" + schema,
                        "baton.worker.enabled=false");
    }
}
