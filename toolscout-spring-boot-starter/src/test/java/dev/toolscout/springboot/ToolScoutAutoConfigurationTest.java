package dev.toolscout.springboot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.toolscout.access.AccessRule;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.execution.ToolResult;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.springai.PrincipalResolver;
import dev.toolscout.springai.ToolScoutSearchAdvisor;
import dev.toolscout.springai.ToolScoutToolCallbackProvider;
import dev.toolscout.springai.ToolScoutToolCallbacks;
import dev.toolscout.springai.ToolScoutToolIndex;
import dev.toolscout.testing.LogCapture;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class ToolScoutAutoConfigurationTest {
    @TempDir
    static Path tmp;

    static Path catalog;
    static Path policy;

    @BeforeAll
    static void files() throws IOException {
        catalog = Files.writeString(tmp.resolve("catalog.json"), """
                {"tools": [
                  {"name": "weather__forecast", "description": "Get the weather forecast for a city"},
                  {"name": "vault__read_secret", "description": "Read a secret from the vault by its path"}
                ]}""");
        policy = Files.writeString(tmp.resolve("policy.json"), """
                {"rules": [{"effect": "deny", "tool": "vault__read_secret", "user": "bob"}]}""");
    }

    static ApplicationContextRunner runner(String dataDir) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ToolScoutAutoConfiguration.class))
                .withPropertyValues(
                        "toolscout.data-dir=" + tmp.resolve(dataDir),
                        "toolscout.catalog-files[0]=" + catalog,
                        "toolscout.policy-file=" + policy);
    }

    static final ToolResult OK = ToolResult.of(JsonNodeFactory.instance.textNode("ok"));

    @Test
    void the_properties_make_every_bean_and_the_toolscout_is_closed_with_the_context() {
        AtomicReference<ToolScout> opened = new AtomicReference<>();
        runner("props")
                .withPropertyValues("toolscout.search.limit=3", "toolscout.search.preselect=2")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    assertThat(ctx)
                            .hasSingleBean(ToolScout.class)
                            .hasSingleBean(ToolRunner.class)
                            .hasSingleBean(ToolScoutToolIndex.class)
                            .hasSingleBean(ToolScoutToolCallbacks.class)
                            .hasSingleBean(ToolScoutToolCallbackProvider.class)
                            .hasSingleBean(ToolScoutSearchAdvisor.class);
                    ToolScout scout = ctx.getBean(ToolScout.class);
                    opened.set(scout);
                    // data dir, catalog files and policy file bound: only the file's tools, the file's rule in force
                    assertThat(scout.maintenance().dataDir()).isEqualTo(tmp.resolve("props"));
                    assertThat(scout.size()).isEqualTo(2);
                    assertThat(scout.policy().rules())
                            .singleElement()
                            .extracting(AccessRule::subjectValue)
                            .isEqualTo("bob");
                    ToolScoutSearchAdvisor advisor = ctx.getBean(ToolScoutSearchAdvisor.class);
                    assertThat(advisor.searchLimit()).isEqualTo(3);
                    assertThat(advisor.preselect()).isEqualTo(2);
                });
        assertThatThrownBy(() -> opened.get().size()).isInstanceOf(IllegalStateException.class);
    }

    @Configuration(proxyBeanMethods = false)
    static class AppTools {
        @Bean
        ToolRunnerCustomizer weather() {
            return b -> b.executor("weather", call -> OK);
        }

        @Bean
        ToolRunnerCustomizer vault() {
            return b -> b.executor("vault", call -> OK);
        }

        @Bean
        PrincipalResolver bobOnly() {
            return PrincipalResolver.fixed(new Principal("bob", null, null));
        }
    }

    @Test
    void the_applications_runner_customizers_and_principal_resolver_are_used() {
        runner("custom").withUserConfiguration(AppTools.class).run(ctx -> {
            assertThat(ctx).hasNotFailed();
            ToolRunner runner = ctx.getBean(ToolRunner.class);
            ToolSpec vault =
                    runner.resolve(Principal.ANONYMOUS, "vault__read_secret").orElseThrow();
            assertThat(runner.runs(vault)).isTrue();
            ToolScoutToolCallbackProvider provider = ctx.getBean(ToolScoutToolCallbackProvider.class);
            // both run now; bob, the application's principal, may not see the vault: it is not offered
            assertThat(Arrays.stream(provider.getToolCallbacks())
                            .map(c -> c.getToolDefinition().name())
                            .toList())
                    .containsExactly("weather__forecast");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoResolvers {
        @Bean
        PrincipalResolver first() {
            return PrincipalResolver.fixed(new Principal("bob", null, null));
        }

        @Bean
        PrincipalResolver second() {
            return PrincipalResolver.fixed(new Principal("ann", null, null));
        }
    }

    @Test
    void the_principal_resolver_property_picks_one_of_several() {
        runner("named")
                .withUserConfiguration(TwoResolvers.class)
                .withPropertyValues("toolscout.principal-resolver=second")
                .run(ctx -> {
                    assertThat(ctx).hasNotFailed();
                    var provider = ctx.getBean(ToolScoutToolCallbackProvider.class);
                    assertThat(provider.principalResolver().resolve(java.util.Map.of()))
                            .isEqualTo(new Principal("ann", null, null));
                });
        try (LogCapture spring = LogCapture.of("org.springframework")) {
            runner("ambiguous")
                    .withUserConfiguration(TwoResolvers.class)
                    .run(ctx -> assertThat(ctx)
                            .hasFailed()
                            .getFailure()
                            .rootCause()
                            .hasMessageContaining("toolscout.principal-resolver")
                            .hasMessageContaining("first")
                            .hasMessageContaining("second"));
            // Spring's own note that the context did not start, naming the cause
            assertThat(spring.warnings())
                    .singleElement()
                    .asString()
                    .contains("cancelling refresh attempt")
                    .contains("toolscout.principal-resolver must name one of the PrincipalResolver beans");
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnAdvisor {
        @Bean
        ToolScoutSearchAdvisor mine(ToolScoutToolCallbackProvider provider) {
            return ToolScoutSearchAdvisor.builder(provider).searchLimit(9).build();
        }
    }

    @Test
    void a_bean_the_application_defines_replaces_the_auto_configured_one() {
        runner("own").withUserConfiguration(OwnAdvisor.class).run(ctx -> {
            assertThat(ctx).hasSingleBean(ToolScoutSearchAdvisor.class);
            assertThat(ctx.getBean(ToolScoutSearchAdvisor.class).searchLimit()).isEqualTo(9);
        });
    }

    @Test
    void toolscout_enabled_false_configures_nothing() {
        runner("off")
                .withPropertyValues("toolscout.enabled=false")
                .run(ctx -> assertThat(ctx).doesNotHaveBean(ToolScout.class).doesNotHaveBean(ToolRunner.class));
        assertThat(tmp.resolve("off")).doesNotExist();
    }
}
