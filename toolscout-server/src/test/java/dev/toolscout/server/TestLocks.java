package dev.toolscout.server;

/**
 * The shared resources the server's test classes lock while JUnit runs them in parallel
 * ({@code src/test/resources/junit-platform.properties}): {@code @ResourceLock(TestLocks.LOGGERS)}.
 */
public final class TestLocks {
    /**
     * Logback's loggers, which {@code LogCapture} reroutes while open: two captures of one logger (or of a logger
     * and its parent) at the same time would take each other's messages and restore each other's additivity, so
     * the classes that capture run one at a time. Classes that capture nothing run beside them: a passing run's
     * warnings are all captured, so none of theirs reaches a capture.
     */
    public static final String LOGGERS = "logback loggers";

    private TestLocks() {}
}
