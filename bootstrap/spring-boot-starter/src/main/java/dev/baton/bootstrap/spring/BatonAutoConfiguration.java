package dev.baton.bootstrap.spring;

import dev.baton.application.handler.JobHandler;
import dev.baton.bootstrap.Baton;
import dev.baton.bootstrap.BatonBuilder;
import dev.baton.bootstrap.config.BatonConfig;
import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.config.Mode;
import dev.baton.bootstrap.config.SchedulesFile;
import dev.baton.bootstrap.config.Setting;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Baton in a Spring Boot 3.5 or 4 application (docs/SPRING.md): a {@link Baton} bean from the {@code baton.*}
 * properties on the application's {@code DataSource} and {@code MeterRegistry}, its handler beans registered, a
 * worker on {@code baton.worker.queues} started with the context (firing {@code baton.schedules}) and stopped
 * gracefully when it closes, a {@link TransactionalOutbox} that enqueues in the application's transactions, and a
 * health indicator when the actuator is there. Baton's migrations stay in Baton's schema with their own history
 * tables, and run only when the ledger opens: the application's own Flyway, if it has one, is left as it is.
 * <p>
 * It runs after the auto-configurations of the {@code DataSource}, Flyway and the meter registry, named on both
 * lines: Boot 4 moved them to modules of their own (spring-boot-jdbc, spring-boot-flyway,
 * spring-boot-micrometer-metrics), and a condition on the {@code DataSource} bean evaluated before its
 * auto-configuration would not see it.
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration",
        "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
        "org.springframework.boot.autoconfigure.flyway.FlywayAutoConfiguration",
        "org.springframework.boot.flyway.autoconfigure.FlywayAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration"})
public class BatonAutoConfiguration {

    /**
     * @throws ConfigException when a property breaks its rule (a bad schedule names its element or file line), two
     *                         handler beans share a name, or the ledger has neither a {@code DataSource} nor
     *                         {@code baton.jdbc-url}
     */
    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    public Baton baton(Environment environment, ObjectProvider<DataSource> dataSources,
                       ObjectProvider<MeterRegistry> registries, ListableBeanFactory beans) {
        Binder binder = Binder.get(environment);
        BatonConfig config = PropertySettings.config(binder);
        Optional<DataSource> dataSource = Optional.ofNullable(dataSources.getIfAvailable());
        if (config.get(Setting.MODE) == Mode.EXACTLY_ONCE && dataSource.isEmpty()
                && PropertySettings.bound(binder, Setting.JDBC_URL).isEmpty()) {
            throw new ConfigException("Baton's ledger (baton.mode=exactly-once) needs the application's DataSource"
                    + " (spring.datasource.url) or baton.jdbc-url; baton.mode=at-least-once runs without one");
        }
        // the context closes Baton, after the worker's graceful stop: no JVM hook of Baton's own
        BatonBuilder builder = Baton.builder().config(config).shutdownHook(false);
        dataSource.ifPresent(builder::dataSource);
        Optional<MeterRegistry> registry = Optional.ofNullable(registries.getIfAvailable());
        registry.ifPresent(builder::meterRegistry);
        HandlerBeans.byName(beans.getBeansOfType(JobHandler.class), dataSource).forEach(builder::handler);
        SchedulesFile.fromList(OwnProperty.SCHEDULES.property, OwnProperty.SCHEDULES.list(binder))
                .forEach(builder::schedule);
        OwnProperty.SCHEDULES_FILE.text(binder).map(Path::of).ifPresent(builder::schedulesFile);
        Baton baton = builder.build();
        // the application's registry is what its actuator scrapes: the queue gauges go there
        registry.ifPresent(any -> baton.startGauges());
        return baton;
    }

    @Bean
    @ConditionalOnProperty(prefix = "baton.worker", name = "enabled", matchIfMissing = true)
    BatonWorkers batonWorkers(Baton baton, Environment environment) {
        Binder binder = Binder.get(environment);
        return new BatonWorkers(baton, OwnProperty.WORKER_QUEUES.list(binder), OwnProperty.WORKER_HANDLER.text(binder));
    }

    /** Enqueues in the application's Spring transactions; in at-least-once mode (no outbox) each enqueue refuses. */
    @Bean
    @ConditionalOnBean(DataSource.class)
    @ConditionalOnMissingBean
    public TransactionalOutbox transactionalOutbox(Baton baton, DataSource dataSource) {
        return new TransactionalOutbox(baton, dataSource);
    }

    /** Spring Boot 3.5's actuator, an optional dependency of Baton's. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
    static class HealthOnBoot3 {
        @Bean
        @ConditionalOnMissingBean(name = "batonHealthIndicator")
        BatonHealthIndicator batonHealthIndicator(Baton baton) {
            return new BatonHealthIndicator(baton);
        }
    }

    /** Spring Boot 4's actuator, whose health API is in spring-boot-health: this class is read only by name. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
    static class HealthOnBoot4 {
        @Bean
        @ConditionalOnMissingBean(name = "batonHealthIndicator")
        BatonBoot4HealthIndicator batonHealthIndicator(Baton baton) {
            return new BatonBoot4HealthIndicator(baton);
        }
    }
}
