package dev.toolscout.server.cli;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Isolated;

/** The command line's logging, set up in code: what the logback.xml it replaced said. */
@Isolated // sets system properties the CLI reads
class LoggingSetupTest {
    @AfterEach
    void clear() {
        System.clearProperty("TOOLSCOUT_LOG_LEVEL");
        System.clearProperty("logback.configurationFile");
    }

    private static LoggerContext configured() {
        LoggerContext ctx = new LoggerContext();
        LoggingSetup setup = new LoggingSetup();
        setup.setContext(ctx);
        assertThat(setup.configure(ctx)).isEqualTo(Configurator.ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY);
        return ctx;
    }

    @Test
    void logs_warnings_and_up_to_stderr_and_keeps_djl_and_the_mcp_sdk_quieter() {
        LoggerContext ctx = configured();

        ch.qos.logback.classic.Logger root = ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.WARN);
        assertThat(root.getAppender("STDERR"))
                .isInstanceOfSatisfying(
                        ConsoleAppender.class, a -> assertThat(a.getTarget()).isEqualTo("System.err"));
        assertThat(ctx.getLogger("dev.toolscout.engine").getEffectiveLevel()).isEqualTo(Level.WARN);
        assertThat(ctx.getLogger("ai.djl.util").getEffectiveLevel()).isEqualTo(Level.ERROR);
        assertThat(ctx.getLogger("io.modelcontextprotocol.spec.McpClientSession")
                        .getEffectiveLevel())
                .isEqualTo(Level.ERROR);
        assertThat(ctx.getLogger("io.modelcontextprotocol.spec.McpTransport").getEffectiveLevel())
                .isEqualTo(Level.ERROR);
    }

    @Test
    void toolscout_log_level_sets_our_loggers_level_and_junk_falls_back_to_warn() {
        System.setProperty("TOOLSCOUT_LOG_LEVEL", "debug");
        assertThat(configured().getLogger("dev.toolscout.engine").getEffectiveLevel())
                .isEqualTo(Level.DEBUG);

        System.setProperty("TOOLSCOUT_LOG_LEVEL", "loud");
        assertThat(configured().getLogger("dev.toolscout.engine").getEffectiveLevel())
                .isEqualTo(Level.WARN);
    }

    @Test
    void a_configuration_file_named_on_the_command_line_is_left_to_logback() {
        System.setProperty("logback.configurationFile", "/etc/toolscout/logback.xml");
        LoggerContext ctx = new LoggerContext();
        LoggingSetup setup = new LoggingSetup();
        setup.setContext(ctx);

        assertThat(setup.configure(ctx)).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
        assertThat(ctx.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).getAppender("STDERR"))
                .isNull();
    }
}
