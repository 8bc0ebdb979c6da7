package dev.toolscout.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.knuddels.jtokkit.api.EncodingType;
import dev.toolscout.Fixture;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.model.Principal;
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
        StoredTokenCounts loaded = new StoredTokenCounts(f.store, next, List.of(ENGINE_TOOL));
        assertThat(loaded.load(f.catalog.snapshot())).isEqualTo(f.catalog.size() + 1);

        long sum = 0;
        for (CatalogEntry e : f.catalog.snapshot().entries()) {
            sum += loaded.tokens(e);
        }
        loaded.tokens(ENGINE_TOOL.contentHash(), ENGINE_TOOL);
        StoredTokenCounts.Sum all = loaded.allowedTokens(f.catalog.snapshot(), allowAll(f));
        assertThat(next.countedDefinitions()).isZero();
        assertThat(all).isEqualTo(new StoredTokenCounts.Sum(sum, 0));
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
        counts.count(f.catalog.snapshot().get(many.get(0).fullName())); // as the indexer counts a tool it indexes
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
    void a_count_a_selection_makes_while_a_fill_runs_is_stored_by_that_fill_or_the_next() {
        Fixture f = new Fixture();
        List<ToolSpec> tools = List.of(
                Fixture.tool("files__read", "Read a file."),
                Fixture.tool("files__write", "Write a file."),
                Fixture.tool("files__list", "List a folder."));
        f.catalog.sync(tools);
        CatalogEntry late = f.catalog.snapshot().get("files__list");
        StoredTokenCounts[] counts = new StoredTokenCounts[1];
        // the fill's look for counts another process stored is where a request thread's sum counts the tool first
        TokenCountStore store = new TokenCountStore() {
            @Override
            public Map<String, Integer> loadTokenCounts(String counter, java.util.Collection<String> hashes) {
                counts[0].tokens(late);
                return f.store.loadTokenCounts(counter, hashes);
            }

            @Override
            public void saveTokenCounts(String counter, Map<String, Integer> byContentHash) {
                f.store.saveTokenCounts(counter, byContentHash);
            }
        };
        counts[0] = new StoredTokenCounts(store, new TokenCounter(), List.of());

        boolean complete = counts[0].fill(f.catalog.snapshot(), () -> false);
        if (!complete) { // the indexer fills again when told it is not complete
            counts[0].fill(f.catalog.snapshot(), () -> false);
        }

        assertThat(storedCount(f, tools)).isEqualTo(tools.size());
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

    @Test
    void closing_after_indexing_stores_every_definition_counted_even_beyond_the_counters_cache() {
        // issue 35: the counts made while indexing were kept only in the counter's cache (least recently used first
        // out), and the fill on close saved what the cache still held: a built directory of 100k tools, against a
        // cache of 65,536, was left with counts for some of them. Here a cache of 4 against 20 tools.
        Fixture f = new Fixture();
        List<ToolSpec> many = tools(20);
        f.catalog.sync(many);
        TokenCounter counter = new TokenCounter(EncodingType.CL100K_BASE, 4);
        StoredTokenCounts counts = new StoredTokenCounts(f.store, counter, List.of());
        f.catalog.snapshot().entries().forEach(counts::count);

        // the indexer closing: saves what was counted, counts nothing more
        assertThat(counts.fill(f.catalog.snapshot(), () -> true)).isTrue();

        assertThat(storedCount(f, many)).isEqualTo(many.size());
        assertThat(counter.countedDefinitions()).isEqualTo(many.size());
    }

    @Test
    void a_sum_counts_at_most_one_batch_estimates_the_rest_and_is_exact_once_filled() {
        Fixture f = new Fixture();
        List<ToolSpec> many = tools(StoredTokenCounts.COUNT_INLINE + 40);
        f.catalog.sync(many);
        long exact = new TokenCounter().allowedTokens(f.catalog.snapshot(), allowAll(f));
        TokenCounter counter = new TokenCounter();
        StoredTokenCounts counts = new StoredTokenCounts(f.store, counter, List.of());

        StoredTokenCounts.Sum first = counts.allowedTokens(f.catalog.snapshot(), allowAll(f));
        assertThat(first.estimated()).isEqualTo(40);
        assertThat(counter.countedDefinitions()).isEqualTo(StoredTokenCounts.COUNT_INLINE);
        // the tools differ only in their number: the mean of the counted ones is close
        assertThat((double) first.tokens()).isCloseTo(exact, org.assertj.core.data.Percentage.withPercentage(5));

        // the next sum counts the next batch (a read-only engine's sums converge on their own)
        assertThat(counts.allowedTokens(f.catalog.snapshot(), allowAll(f)))
                .isEqualTo(new StoredTokenCounts.Sum(exact, 0));
        assertThat(counts.fill(f.catalog.snapshot(), () -> false)).isTrue();
        assertThat(storedCount(f, many)).isEqualTo(many.size());
        assertThat(counter.countedDefinitions()).isEqualTo(many.size());
    }

    private static List<ToolSpec> tools(int n) {
        List<ToolSpec> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Fixture.tool("bulk__t" + i, "Tool number " + i));
        }
        return out;
    }

    private static AllowedSet allowAll(Fixture f) {
        return f.access.allowed(f.catalog.snapshot(), Principal.ANONYMOUS);
    }

    private static int storedCount(Fixture f, List<ToolSpec> specs) {
        return f.store
                .loadTokenCounts(
                        TokenCounter.DEFAULT_IDENTITY,
                        specs.stream().map(ToolSpec::contentHash).toList())
                .size();
    }
}
