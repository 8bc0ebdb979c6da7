package dev.toolscout.testing;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;
import org.slf4j.LoggerFactory;

/**
 * Starts SLF4J (logback) once, on the launcher's thread, before any test class runs. With test classes in parallel
 * (engine, server, mcp) the first ones otherwise log at once while SLF4J initialises, and a class whose static logger
 * was asked for in that window may keep a no-operation stand-in for good: its warnings then never reach a
 * {@link LogCapture} (SecretBoxTest failed so, once in a few runs). Registered for every module whose tests have
 * core's test jar, through {@code META-INF/services/org.junit.platform.launcher.LauncherSessionListener}.
 */
public final class LoggingFirst implements LauncherSessionListener {
    @Override
    public void launcherSessionOpened(LauncherSession session) {
        LoggerFactory.getILoggerFactory();
    }
}
