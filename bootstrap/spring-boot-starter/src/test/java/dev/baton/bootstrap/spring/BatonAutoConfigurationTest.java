package dev.baton.bootstrap.spring;

import static dev.baton.bootstrap.config.Setting.CONCURRENCY;
import static dev.baton.bootstrap.config.Setting.DELIVERY_LIMIT;
import static dev.baton.bootstrap.config.Setting.GRACE;
import static dev.baton.bootstrap.config.Setting.JDBC_URL;
import static dev.baton.bootstrap.config.Setting.JOB_THREADS;
import static dev.baton.bootstrap.config.Setting.JOB_TIMEOUT;
import static dev.baton.bootstrap.config.Setting.LEASE;
import static dev.baton.bootstrap.config.Setting.MIGRATIONS;
import static dev.baton.bootstrap.config.Setting.MODE;
import static dev.baton.bootstrap.config.Setting.NO_HANDLER_GRACE;
import static dev.baton.bootstrap.config.Setting.REDIS_URI;
import static dev.baton.bootstrap.config.Setting.SCHEMA;
import static dev.baton.bootstrap.examples.InvoiceJobs.ISSUE_INVOICE;
import static org.assertj.core.api.Assertions.assertThat;

import dev.baton.application.handler.JobContext;
import dev.baton.application.handler.JobHandler;
import dev.baton.application.service.JobThreads;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.Mode;
import dev.baton.bootstrap.examples.InvoiceJobs;
import dev.baton.domain.Backoff;
import dev.baton.domain.QueueName;
import dev.baton.domain.Schedule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.boot.autoconfigure.jdbc.JdbcTemplateAutoConfiguration;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The auto-configuration's decisions, without servers (Baton opens Redis and PostgreSQL lazily): the properties as
 * Baton's configuration, the context failing on bad ones with the property named, handler beans by name, and the
 * switches for the worker and the health indicator.
 */
class BatonAutoConfigurationTest {
    private static final JobHandler NOOP = context -> Optional.empty();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(BatonAutoConfiguration.class))
            .withPropertyValues("baton.mode=at-least-once");

    @Test
    void thePropertiesBecomeBatonsConfiguration() {
        runner.withPropertyValues("baton.redis-uri=redis://cache.internal:6380", "baton.schema=jobs",
                "baton.queues=emails,reports", "baton.concurrency=3", "baton.max-attempts=7",
                "baton.backoff-initial=2s", "baton.job-timeout=2m", "baton.lease=45s", "baton.grace=5s",
                "baton.delivery-limit=9", "baton.job-threads=platform", "baton.no-handler-grace=2m").run(context -> {
            BatonConfig config = context.getBean(Baton.class).config();

            assertThat(config.get(REDIS_URI)).isEqualTo("redis://cache.internal:6380");
            assertThat(config.get(SCHEMA)).isEqualTo("jobs");
            assertThat(config.get(MODE)).isEqualTo(Mode.AT_LEAST_ONCE);
            assertThat(config.queues()).containsExactly(QueueName.of("emails"), QueueName.of("reports"));
            assertThat(config.get(CONCURRENCY)).isEqualTo(3);
            assertThat(config.poolSize()).as("the pool follows the concurrency").isEqualTo(5);
            assertThat(config.retryPolicy().maxAttempts()).isEqualTo(7);
            assertThat(config.retryPolicy().backoff()).isInstanceOfSatisfying(Backoff.Exponential.class, backoff -> {
                assertThat(backoff.initial()).isEqualTo(Duration.ofSeconds(2));
                assertThat(backoff.max()).as("the default, as the other half was not given")
                        .isEqualTo(Duration.ofMinutes(5));
            });
            assertThat(config.get(JOB_TIMEOUT)).isEqualTo(Duration.ofMinutes(2));
            assertThat(config.get(LEASE)).isEqualTo(Duration.ofSeconds(45));
            assertThat(config.get(GRACE)).isEqualTo(Duration.ofSeconds(5));
            assertThat(config.get(DELIVERY_LIMIT)).isEqualTo(9);
            assertThat(config.get(JOB_THREADS)).isEqualTo(JobThreads.PLATFORM);
            assertThat(config.get(NO_HANDLER_GRACE)).isEqualTo(Duration.ofMinutes(2));
        });
    }

    @Test
    void unsetPropertiesKeepBatonsDefaults() {
        String defaultUrl = BatonConfig.defaults().get(JDBC_URL);
        runner.withPropertyValues("baton.mode=exactly-once", "baton.jdbc-url=" + defaultUrl).run(context ->
                assertThat(context.getBean(Baton.class).config()).isEqualTo(BatonConfig.defaults()));
    }

    /** docs/SPRING.md's application.yml, with Spring Boot's own DataSource and JdbcTemplate auto-configuration. */
    @Test
    void theDocumentedApplicationYmlConfiguresBaton() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
                        JdbcTemplateAutoConfiguration.class, BatonAutoConfiguration.class))
                .withInitializer(context -> applicationYml()
                        .forEach(context.getEnvironment().getPropertySources()::addFirst))
                .withUserConfiguration(InvoiceJobs.class)
                .withBean(InvoiceJobs.InvoiceMailer.class, () -> invoice -> { })
                .withPropertyValues("baton.worker.enabled=false") // its servers are not there: no worker to open them
                .run(context -> {
                    Baton baton = context.getBean(Baton.class);
                    BatonConfig config = baton.config();
                    assertThat(config.get(MODE)).isEqualTo(Mode.EXACTLY_ONCE);
                    assertThat(config.get(CONCURRENCY)).isEqualTo(4);
                    assertThat(config.retryPolicy().maxAttempts()).isEqualTo(5);
                    assertThat(config.get(JOB_TIMEOUT)).isEqualTo(Duration.ofMinutes(2));
                    assertThat(config.get(MIGRATIONS)).containsExactly("classpath:db/invoices");
                    assertThat(baton.handlers().names()).contains(ISSUE_INVOICE.name());
                    assertThat(context.getBean(InvoiceJobs.Invoices.class).queue()).isEqualTo(QueueName.of("billing"));
                });
    }

    private static List<PropertySource<?>> applicationYml() {
        try {
            return new YamlPropertySourceLoader().load("application.yml",
                    new ClassPathResource("examples/application.yml"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aSentinelUriIsAcceptedAsTheRedisUri() {
        runner.withPropertyValues("baton.redis-uri=redis-sentinel://:pw@s1:26379,s2:26379#jobs").run(context ->
                assertThat(context.getBean(Baton.class).config().get(REDIS_URI))
                        .isEqualTo("redis-sentinel://:pw@s1:26379,s2:26379#jobs"));
    }

    @Test
    void aPropertyThatBreaksItsRuleFailsTheContextNamingIt() {
        runner.withPropertyValues("baton.concurrency=0").run(context -> assertThat(context).getFailure()
                .rootCause().isInstanceOf(ConfigException.class)
                .hasMessage("baton.concurrency=0: must be in 1..10000"));
        runner.withPropertyValues("baton.redis-uri=http://:hunter2@cache:6379").run(context ->
                assertThat(context).getFailure().rootCause().isInstanceOf(ConfigException.class)
                        .hasMessageStartingWith("baton.redis-uri=http://:****@cache:6379: expected redis://")
                        .hasMessageNotContaining("hunter2"));
        runner.withPropertyValues("baton.mode=exactly-once", "baton.jdbc-url=jdbc:mysql://db/app").run(context ->
                assertThat(context).getFailure().rootCause()
                        .hasMessageStartingWith("baton.jdbc-url=jdbc:mysql://db/app: must be a PostgreSQL JDBC URL"));
    }

    @Test
    void theLedgerNeedsTheApplicationsDataSourceOrAJdbcUrl() {
        runner.withPropertyValues("baton.mode=exactly-once").run(context -> assertThat(context).getFailure()
                .rootCause().isInstanceOf(ConfigException.class).hasMessageContaining("needs the application's"
                        + " DataSource (spring.datasource.url) or baton.jdbc-url"));
        runner.withPropertyValues("baton.mode=exactly-once", "baton.jdbc-url=jdbc:postgresql://db/app?user=app")
                .run(context -> assertThat(context.getBean(Baton.class).config().get(JDBC_URL))
                        .isEqualTo("jdbc:postgresql://db/app?user=app"));
    }

    @Test
    void handlerBeansAreRegisteredUnderTheirNames() {
        runner.withUserConfiguration(InvoiceJobs.class)
                .withBean("emails", JobHandler.class, () -> NOOP)
                .withBean(InvoiceJobs.InvoiceMailer.class, () -> invoice -> { })
                .withBean(JdbcTemplate.class, () -> new JdbcTemplate(new DriverManagerDataSource()))
                .run(context -> assertThat(context.getBean(Baton.class).handlers().names())
                        .as("a plain JobHandler by its bean name, a typed one by its type")
                        .contains("emails", ISSUE_INVOICE.name()).doesNotContain("issueInvoice"));
    }

    @Test
    void twoHandlerBeansOfOneNameFailTheContext() {
        runner.withBean("emails", JobHandler.class, () -> NOOP)
                .withBean("mailer", JobHandler.class, () -> ISSUE_INVOICE.handledBy(BatonAutoConfigurationTest::none))
                .withBean("invoices", JobHandler.class, () -> ISSUE_INVOICE.handledBy(BatonAutoConfigurationTest::none))
                .run(context -> assertThat(context).getFailure().rootCause().isInstanceOf(ConfigException.class)
                        .hasMessage("the beans 'mailer' and 'invoices' are both the handler 'issue-invoice': give one"
                                + " another name"));
    }

    private static Optional<String> none(InvoiceJobs.IssueInvoice invoice, JobContext context) {
        return Optional.empty();
    }

    @Test
    void aWorkerWhoseHandlerIsUnknownFailsTheStartUnlessWorkersAreOff() {
        runner.withPropertyValues("baton.worker.queues=emails", "baton.worker.handler=welcome").run(context ->
                assertThat(context).getFailure().rootCause().isInstanceOf(ConfigException.class)
                        .hasMessageStartingWith("unknown handler 'welcome'"));
        runner.withPropertyValues("baton.worker.queues=emails", "baton.worker.handler=welcome",
                "baton.worker.enabled=false").run(context -> {
            assertThat(context).hasNotFailed().hasSingleBean(Baton.class).doesNotHaveBean(BatonWorkers.class);
        });
    }

    /** Boot 3.5's actuator here: the indicator of Boot 4's health API (not on this classpath) is left out. */
    @Test
    void theHealthIndicatorNeedsTheActuator() {
        runner.run(context -> assertThat(context).hasSingleBean(BatonHealthIndicator.class)
                .getBean("batonHealthIndicator").isInstanceOf(BatonHealthIndicator.class));
        runner.withClassLoader(new FilteredClassLoader(HealthIndicator.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(BatonHealthIndicator.class));
    }

    @Test
    void schedulesComeFromPropertiesAndABadOneFailsTheStartNamingIt() {
        runner.withPropertyValues("baton.schedules[0]=tick | every 10s | metrics | {}",
                "baton.schedules[1]=nightly | TZ=Europe/Berlin 0 2 * * * catch-up=skip | reports | {\"kind\":1}")
                .run(context -> assertThat(context.getBean(Baton.class).schedules())
                        .containsExactly(Schedule.of("tick", "every 10s", "metrics", "{}"),
                                Schedule.of("nightly", "TZ=Europe/Berlin 0 2 * * * catch-up=skip", "reports",
                                        "{\"kind\":1}")));
        runner.withPropertyValues("baton.schedules[0]=tick | every 10s | metrics | {}",
                "baton.schedules[1]=report | 0 25 * * * | reports | {}")
                .run(context -> assertThat(context).getFailure().rootCause().isInstanceOf(ConfigException.class)
                        .hasMessage("baton.schedules[1]: cron hour field '25': values are 0..23"));
    }
}
