package dev.baton.bootstrap.testing;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.slf4j.LoggerFactory;

/**
 * What every logger wrote during each test, for tests that assert on log lines:
 * {@code @RegisterExtension final LogCapture log = new LogCapture();}.
 */
public final class LogCapture implements BeforeEachCallback, AfterEachCallback {
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();
    private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);

    @Override
    public void beforeEach(ExtensionContext context) {
        appender.start();
        root.addAppender(appender);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        root.detachAppender(appender);
    }

    /** The events so far, oldest first. */
    public List<ILoggingEvent> events() {
        return appender.list;
    }
}
