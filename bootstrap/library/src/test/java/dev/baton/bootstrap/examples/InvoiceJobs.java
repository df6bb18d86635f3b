package dev.baton.bootstrap.examples;

import dev.baton.application.handler.NamedJobHandler;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.domain.Job;
import dev.baton.domain.JobId;
import dev.baton.domain.QueueName;
import java.util.Optional;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/** Spring Boot: a handler bean that writes with the application's JdbcTemplate, inside the job's transaction. */
@Configuration(proxyBeanMethods = false)
public class InvoiceJobs {
    public record IssueInvoice(String orderId, long cents) {
    }

    public static final JobType<IssueInvoice> ISSUE_INVOICE = JobType.of("issue-invoice", IssueInvoice.class);

    /** What the handler calls after its insert; when it throws, the insert rolls back and the retry writes it anew. */
    public interface InvoiceMailer {
        void send(IssueInvoice invoice) throws Exception;
    }

    /** A bean named like its type (JobType.handledBy): it runs every issue-invoice job, whatever the queue. */
    @Bean
    NamedJobHandler issueInvoice(JdbcTemplate jdbc, InvoiceMailer mailer) {
        return ISSUE_INVOICE.handledBy((invoice, context) -> {
            jdbc.update("INSERT INTO invoices (order_id, cents, job_id) VALUES (?, ?, ?)",
                    invoice.orderId(), invoice.cents(), context.job().id().value());
            mailer.send(invoice);
            return Optional.empty();
        });
    }

    /** The Baton bean enqueues; the worker of baton.worker.queues (billing.queue among them) runs the job. */
    @Bean
    Invoices invoices(Baton baton, @Value("${billing.queue:billing}") String queue) {
        return new Invoices(baton, QueueName.of(queue));
    }

    public record Invoices(Baton baton, QueueName queue) {
        public Job issue(IssueInvoice invoice) {
            return baton.enqueue(ISSUE_INVOICE, queue, JobId.of("invoice-" + invoice.orderId()), invoice);
        }
    }
}
