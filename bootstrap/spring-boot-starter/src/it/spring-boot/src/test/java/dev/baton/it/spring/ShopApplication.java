package dev.baton.it.spring;

import dev.baton.application.handler.NamedJobHandler;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.bootstrap.spring.TransactionalOutbox;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** A Spring Boot service with Baton: an order service that enqueues, a handler bean that writes with JdbcTemplate. */
@SpringBootApplication
public class ShopApplication {
    public record IssueInvoice(String orderId) {
    }

    public static final JobType<IssueInvoice> ISSUE_INVOICE = JobType.of("issue-invoice", IssueInvoice.class);

    /** Writes the invoice in the job's transaction; an order named flaky-… fails its first attempt after the write. */
    @Bean
    NamedJobHandler issueInvoice(JdbcTemplate jdbc) {
        return ISSUE_INVOICE.handledBy((invoice, context) -> {
            jdbc.update("INSERT INTO invoices (order_id, job_id) VALUES (?, ?)", invoice.orderId(),
                    context.job().id().value());
            if (invoice.orderId().startsWith("flaky") && context.attempt() == 1) {
                throw new IllegalStateException("the mail server is busy");
            }
            return Optional.empty();
        });
    }

    @Service
    public static class Orders {
        private final JdbcTemplate jdbc;
        private final Baton baton;
        private final TransactionalOutbox outbox;
        private final QueueName queue;

        Orders(JdbcTemplate jdbc, Baton baton, TransactionalOutbox outbox,
               @Value("${baton.worker.queues}") String queue) {
            this.jdbc = jdbc;
            this.baton = baton;
            this.outbox = outbox;
            this.queue = QueueName.of(queue);
        }

        /** Stores the order and enqueues its invoice in the same transaction; a declined payment rolls both back. */
        @Transactional
        public void placeInTransaction(String orderId, long cents, boolean declined) {
            jdbc.update("INSERT INTO orders (order_id, cents) VALUES (?, ?)", orderId, cents);
            outbox.enqueue(ISSUE_INVOICE, queue, JobId.of("invoice-" + orderId), new IssueInvoice(orderId));
            if (declined) {
                throw new IllegalStateException("payment declined");
            }
        }

        /** Stores the order and enqueues its invoice directly: a declined payment rolls only the order back. */
        @Transactional
        public void place(String orderId, long cents, boolean declined) {
            jdbc.update("INSERT INTO orders (order_id, cents) VALUES (?, ?)", orderId, cents);
            baton.enqueue(ISSUE_INVOICE, queue, JobId.of("invoice-" + orderId), new IssueInvoice(orderId));
            if (declined) {
                throw new IllegalStateException("payment declined");
            }
        }
    }
}
