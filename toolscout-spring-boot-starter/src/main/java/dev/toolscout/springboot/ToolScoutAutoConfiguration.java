package dev.toolscout.springboot;

import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.springai.PrincipalResolver;
import dev.toolscout.springai.ToolScoutSearchAdvisor;
import dev.toolscout.springai.ToolScoutToolCallbackProvider;
import dev.toolscout.springai.ToolScoutToolCallbacks;
import dev.toolscout.springai.ToolScoutToolIndex;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * ToolScout for Spring AI, from the {@code toolscout.*} properties ({@link ToolScoutProperties}): the {@link
 * ToolScout} (closed at shutdown), its {@link ToolRunner} (with the executors of every {@link ToolRunnerCustomizer}
 * bean), the {@link ToolScoutToolIndex}, the {@link ToolScoutToolCallbacks}, the {@link
 * ToolScoutToolCallbackProvider} and the {@link ToolScoutSearchAdvisor}. Each is made only when the application
 * defines none of its type, so any can be replaced. Off with {@code toolscout.enabled=false}.
 */
@AutoConfiguration
@EnableConfigurationProperties(ToolScoutProperties.class)
@ConditionalOnProperty(prefix = "toolscout", name = "enabled", havingValue = "true", matchIfMissing = true)
public class ToolScoutAutoConfiguration {

    @Bean(destroyMethod = "close")
    @ConditionalOnMissingBean
    ToolScout toolScout(ToolScoutProperties p) {
        ToolScout.Builder b = ToolScout.builder().dataDir(p.getDataDir());
        if (p.getModel() != null && !p.getModel().isBlank()) {
            b.model(p.getModel());
        }
        if (p.getStore() != null && !p.getStore().isBlank()) {
            b.store(p.getStore());
        }
        if (p.getPolicyFile() != null) {
            b.policyFile(p.getPolicyFile());
        }
        if (p.getCatalogFiles() != null && !p.getCatalogFiles().isEmpty()) {
            b.catalogFiles(p.getCatalogFiles());
        }
        return b.readOnly(p.isReadOnly()).build();
    }

    @Bean
    @ConditionalOnMissingBean
    ToolRunner toolScoutRunner(ToolScout scout, ObjectProvider<ToolRunnerCustomizer> customizers) {
        ToolRunner.Builder b = ToolRunner.builder(scout);
        customizers.orderedStream().forEach(c -> c.customize(b));
        return b.build();
    }

    @Bean
    @ConditionalOnMissingBean
    ToolScoutToolIndex toolScoutToolIndex(ToolRunner runner) {
        return new ToolScoutToolIndex(runner);
    }

    @Bean
    @ConditionalOnMissingBean
    ToolScoutToolCallbacks toolScoutToolCallbacks(ToolRunner runner) {
        return new ToolScoutToolCallbacks(runner);
    }

    @Bean
    @ConditionalOnMissingBean
    ToolScoutToolCallbackProvider toolScoutToolCallbackProvider(
            ToolScoutToolIndex index,
            ToolScoutToolCallbacks callbacks,
            ToolScoutProperties p,
            ObjectProvider<PrincipalResolver> resolvers,
            ListableBeanFactory beans) {
        String name = p.getPrincipalResolver();
        PrincipalResolver resolver;
        if (name != null && !name.isBlank()) {
            resolver = beans.getBean(name, PrincipalResolver.class);
        } else {
            String[] names = beans.getBeanNamesForType(PrincipalResolver.class);
            if (names.length > 1) {
                throw new IllegalStateException("toolscout.principal-resolver must name one of the PrincipalResolver "
                        + "beans when there are several, got none; beans: " + String.join(", ", names));
            }
            resolver = resolvers.getIfAvailable(PrincipalResolver::fromContext);
        }
        return new ToolScoutToolCallbackProvider(index, callbacks, resolver);
    }

    @Bean
    @ConditionalOnMissingBean
    ToolScoutSearchAdvisor toolScoutSearchAdvisor(ToolScoutToolCallbackProvider provider, ToolScoutProperties p) {
        return ToolScoutSearchAdvisor.builder(provider)
                .searchLimit(p.getSearch().getLimit())
                .preselect(p.getSearch().getPreselect())
                .build();
    }
}
