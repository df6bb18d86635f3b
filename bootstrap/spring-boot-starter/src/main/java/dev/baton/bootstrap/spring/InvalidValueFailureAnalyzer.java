package dev.baton.bootstrap.spring;

import dev.baton.domain.InvalidValueException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * An {@link InvalidValueException} that stopped the start (a queue or job type name in the application's own code,
 * say) as Spring Boot's "APPLICATION FAILED TO START" report. Values read from {@code baton.*} properties fail as a
 * {@code ConfigException} naming the property ({@link ConfigFailureAnalyzer}).
 */
final class InvalidValueFailureAnalyzer extends AbstractFailureAnalyzer<InvalidValueException> {
    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidValueException cause) {
        return new FailureAnalysis("A value given to Baton is invalid: " + cause.getMessage(),
                "Correct the value where the application gives it to Baton: its stack trace, logged at DEBUG"
                        + " (logging.level.org.springframework.boot.diagnostics=debug), shows the call.", cause);
    }
}
