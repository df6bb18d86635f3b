package dev.baton.bootstrap.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.baton.bootstrap.config.ConfigException;
import dev.baton.bootstrap.jobs.JobType;
import dev.baton.domain.InvalidValueException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application that Baton's configuration stops prints Spring Boot's "APPLICATION FAILED TO START" report, whose
 * description names the property and whose action says what to change, not a chain of {@code Caused by:}.
 */
@ExtendWith(OutputCaptureExtension.class)
class FailureAnalysisTest {
    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(BatonAutoConfiguration.class)
    static class Application {
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(BatonAutoConfiguration.class)
    static class ApplicationWithABadJobType {
        @Bean
        JobType<String> shipping() {
            return JobType.of(" ", String.class);
        }
    }

    @Test
    void aPropertyThatBreaksItsRuleIsReportedWithTheActionNamingIt(CapturedOutput output) {
        assertThatThrownBy(() -> start(Application.class, "--baton.concurrency=0"))
                .hasRootCauseInstanceOf(ConfigException.class);

        assertThat(output).contains("APPLICATION FAILED TO START", "Description:",
                        "Baton's configuration is invalid: baton.concurrency=0: must be in 1..10000", "Action:",
                        "Change baton.concurrency in the application's configuration")
                .doesNotContain("Caused by:");
    }

    @Test
    void aBadWorkerQueueIsReportedNamingItsProperty(CapturedOutput output) {
        assertThatThrownBy(() -> start(Application.class, "--baton.worker.queues=bad queue"))
                .hasRootCauseInstanceOf(ConfigException.class);

        assertThat(output).contains("APPLICATION FAILED TO START", "baton.worker.queues=bad queue: ",
                "Change baton.worker.queues").doesNotContain("Caused by:");
    }

    @Test
    void anInvalidValueInTheApplicationsCodeIsReported(CapturedOutput output) {
        assertThatThrownBy(() -> start(ApplicationWithABadJobType.class))
                .hasRootCauseInstanceOf(InvalidValueException.class);

        assertThat(output).contains("APPLICATION FAILED TO START",
                        "A value given to Baton is invalid: a job type needs a name, got ' '", "Action:")
                .doesNotContain("Caused by:");
    }

    private static void start(Class<?> application, String... args) {
        SpringApplication spring = new SpringApplication(application);
        spring.setWebApplicationType(WebApplicationType.NONE);
        String[] all = new String[args.length + 1];
        all[0] = "--baton.mode=at-least-once";
        System.arraycopy(args, 0, all, 1, args.length);
        spring.run(all).close();
    }
}
