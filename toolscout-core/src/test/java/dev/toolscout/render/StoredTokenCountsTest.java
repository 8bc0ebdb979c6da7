package dev.toolscout.render;

import static org.assertj.core.api.Assertions.assertThat;

import dev.toolscout.Fixture;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.model.ToolSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class StoredTokenCountsTest {
    private static final ToolSpec ENGINE_TOOL =
            ToolSpec.builder("tool_discovery__find", "Find more tools.").build();

    @Test
    void counts_filled_once_are_loaded_by_the_next_counter_which_then_counts_nothing() {
        Fixture f = new Fixture();
        f.catalog.sync(Fixture.assistantCatalog());
        TokenCounter first = new TokenCounter();
        assertThat(new StoredTokenCounts(f.store, first, List.of(ENGINE_TOOL)).fill(f.catalog.snapshot(), () -> false))
                .isTrue();

        TokenCounter next = new TokenCounter();
        int loaded = new StoredTokenCounts(f.store, next, List.of(ENGINE_TOOL)).load(f.catalog.snapshot());

        assertThat(loaded).isEqualTo(f.catalog.size() + 1);
        long sum = 0;
        for (CatalogEntry e : f.catalog.snapshot().entries()) {
            sum += next.definitionTokens(e);
        }
        next.definitionTokens(ENGINE_TOOL);
        assertThat(next.countedDefinitions()).isZero();
        long fresh = 0;
        for (CatalogEntry e : f.catalog.snapshot().entries()) {
            fresh += new TokenCounter().definitionTokens(e.spec());
        }
        assertThat(sum).isEqualTo(fresh);
    }

    @Test
    void a_fill_that_yields_stores_what_was_counted_and_the_next_one_the_rest() {
        Fixture f = new Fixture();
        List<ToolSpec> many = new ArrayList<>();
        for (int i = 0; i < StoredTokenCounts.BATCH + 10; i++) {
            many.add(Fixture.tool("bulk__t" + i, "Tool number " + i));
        }
        f.catalog.sync(many);
        TokenCounter counter = new TokenCounter();
        StoredTokenCounts counts = new StoredTokenCounts(f.store, counter, List.of());
        counter.definitionTokens(many.get(0));
        AtomicInteger asked = new AtomicInteger();

        // yields before the second batch: the cached one and one batch are stored
        assertThat(counts.fill(f.catalog.snapshot(), () -> asked.incrementAndGet() > 1))
                .isFalse();
        assertThat(counter.countedDefinitions()).isEqualTo(1 + StoredTokenCounts.BATCH);
        assertThat(storedCount(f, many)).isEqualTo(1 + StoredTokenCounts.BATCH);

        assertThat(counts.fill(f.catalog.snapshot(), () -> false)).isTrue();
        assertThat(storedCount(f, many)).isEqualTo(many.size());
        assertThat(counter.countedDefinitions()).isEqualTo(many.size());
    }

    @Test
    void a_negative_stored_count_is_not_taken_and_is_counted_again() {
        Fixture f = new Fixture();
        ToolSpec t = Fixture.tool("files__read", "Read a file.");
        f.catalog.sync(List.of(t));
        TokenCounter counter = new TokenCounter();
        assertThat(counter.remember(Map.of(t.contentHash(), -3))).isEmpty();
        assertThat(new StoredTokenCounts(f.store, counter, List.of()).load(f.catalog.snapshot()))
                .isZero();

        assertThat(counter.definitionTokens(t))
                .isEqualTo(new TokenCounter().definitionTokens(t))
                .isPositive();
        assertThat(counter.countedDefinitions()).isOne();
    }

    @Test
    void the_identity_names_the_encoding_and_the_rendering() {
        assertThat(new TokenCounter().identity())
                .isEqualTo(TokenCounter.DEFAULT_IDENTITY)
                .isEqualTo("cl100k_base/anthropic-definition-v1");
        assertThat(new TokenCounter(com.knuddels.jtokkit.api.EncodingType.O200K_BASE).identity())
                .isEqualTo("o200k_base/" + TokenCounter.RENDERING);
    }

    private static int storedCount(Fixture f, List<ToolSpec> specs) {
        return f.store
                .loadTokenCounts(
                        TokenCounter.DEFAULT_IDENTITY,
                        specs.stream().map(ToolSpec::contentHash).toList())
                .size();
    }
}
