package dev.toolscout.testing;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;

/**
 * What a logger (and its children) logged while open, kept from the console: for a test that provokes a warning
 * on purpose and asserts on it, so a passing run prints nothing alarming. Closing restores the logger. Use one per
 * test, on the test's thread (the appender itself is thread-safe: events logged from other threads are kept too).
 */
public final class LogCapture implements AutoCloseable {
    /**
     * The resource a test class that captures holds while JUnit runs classes in parallel (a module's
     * {@code junit-platform.properties}): {@code @ResourceLock(LogCapture.LOGGERS)}. Two captures of one logger (or
     * of a logger and its parent) open at once would take each other's messages and restore each other's
     * additivity, so the classes that capture run one at a time; classes that capture nothing run beside them (a
     * passing run's warnings are all captured, so none of theirs reaches a capture).
     */
    public static final String LOGGERS = "logback loggers";

    private final Logger logger;
    private final boolean additive;
    private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

    private LogCapture(String name) {
        logger = (Logger) LoggerFactory.getLogger(name);
        additive = logger.isAdditive();
        appender.setContext(logger.getLoggerContext());
        appender.start();
        logger.addAppender(appender);
        logger.setAdditive(false);
    }

    /** Captures what {@code type}'s logger, and loggers named below it, log. */
    public static LogCapture of(Class<?> type) {
        return new LogCapture(type.getName());
    }

    /** Captures what the logger named {@code name}, and loggers named below it, log. */
    public static LogCapture of(String name) {
        return new LogCapture(name);
    }

    /** The messages logged at {@code level} or above so far, formatted, with each exception's class and message. */
    public List<String> messages(Level level) {
        List<String> out = new ArrayList<>();
        synchronized (appender) { // AppenderBase.doAppend holds the appender's lock
            for (ILoggingEvent e : appender.list) {
                if (e.getLevel().isGreaterOrEqual(level)) {
                    IThrowableProxy t = e.getThrowableProxy();
                    out.add(e.getFormattedMessage()
                            + (t == null ? "" : " [" + t.getClassName() + ": " + t.getMessage() + "]"));
                }
            }
        }
        return out;
    }

    /** The warnings and errors logged so far. */
    public List<String> warnings() {
        return messages(Level.WARN);
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        logger.setAdditive(additive);
        appender.stop();
    }
}
