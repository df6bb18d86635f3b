package dev.baton.bootstrap.spring;

import dev.baton.bootstrap.config.ConfigException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A {@link ConfigException} as Spring Boot's "APPLICATION FAILED TO START" report: its message (which names the
 * property and its masked value, e.g. {@code baton.concurrency=0: must be in 1..10000}) as the description and what
 * to change as the action, instead of a chain of bean creation failures. Registered in
 * {@code META-INF/spring.factories}, which Boot 3.5 and 4 both read.
 */
final class ConfigFailureAnalyzer extends AbstractFailureAnalyzer<ConfigException> {
    private static final Pattern PROPERTY = Pattern.compile("^(baton\\.[a-z0-9.\\[\\]-]+)[=:]");

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, ConfigException cause) {
        return new FailureAnalysis("Baton's configuration is invalid: " + cause.getMessage(),
                action(cause.getMessage()), cause);
    }

    static String action(String message) {
        Matcher property = PROPERTY.matcher(message);
        if (property.find()) {
            return "Change " + property.group(1) + " in the application's configuration (application.yml,"
                    + " application.properties or wherever it is set). docs/SPRING.md lists Baton's properties.";
        }
        return "Change what the description names: Baton's properties (docs/SPRING.md) or the application's"
                + " handler beans.";
    }
}
