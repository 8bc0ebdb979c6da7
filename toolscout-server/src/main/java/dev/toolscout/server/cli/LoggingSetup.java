package dev.toolscout.server.cli;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Locale;

/**
 * The command line's logging, set up in code (logback finds it through {@code META-INF/services}): what a
 * {@code logback.xml} said, without starting logback's XML configuration and the JDK's XML parser, which was
 * most of the 0.3 s logging took at every start (docs/BENCHMARKS.md, "Cold start").
 *
 * <ul>
 *   <li>every log line goes to stderr (the commands print their results on stdout), as {@code HH:mm:ss.SSS LEVEL
 *       logger - message};
 *   <li>{@code dev.toolscout} at {@code TOOLSCOUT_LOG_LEVEL} (a system property or environment variable; WARN by
 *       default), everything else at WARN;
 *   <li>DJL at ERROR (it warns at start when there is no GPU, the normal case here);
 *   <li>the MCP SDK's session at {@code TOOLSCOUT_SDK_LOG_LEVEL} (ERROR by default): it logs every failed
 *       connect with its whole stack trace, which UpstreamConnection already reports in one line.
 * </ul>
 *
 * A {@code logback.configurationFile} system property still wins: logback then reads that file as usual.
 */
public final class LoggingSetup extends ContextAwareBase implements Configurator {
    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%d{HH:mm:ss.SSS} %-5level %logger{36} - %msg%n");
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.WARN);
        root.addAppender(stderr);
        context.getLogger("ai.djl").setLevel(Level.ERROR);
        context.getLogger("dev.toolscout").setLevel(level("TOOLSCOUT_LOG_LEVEL", Level.WARN));
        // the MCP SDK's per-request noise, and its warning with a trace when it closes a transport to a server that is
        // already gone (nothing to act on: the upstream manager says the server is down)
        for (String sdk : new String[] {
            "io.modelcontextprotocol.spec.McpClientSession", "io.modelcontextprotocol.spec.McpTransport"
        }) {
            context.getLogger(sdk).setLevel(level("TOOLSCOUT_SDK_LOG_LEVEL", Level.ERROR));
        }
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    /** The level a system property or else an environment variable names ({@code fallback} for none or junk). */
    static Level level(String name, Level fallback) {
        String v = System.getProperty(name);
        if (v == null || v.isBlank()) {
            v = System.getenv(name);
        }
        return v == null || v.isBlank() ? fallback : Level.toLevel(v.strip().toUpperCase(Locale.ROOT), fallback);
    }
}
