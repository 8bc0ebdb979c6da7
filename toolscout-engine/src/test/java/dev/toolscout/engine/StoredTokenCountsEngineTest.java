package dev.toolscout.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.render.StoredTokenCounts;
import dev.toolscout.render.TokenCounter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Definition token counts kept in the state store (issue 22): a restart counts no definition counted before, and
 * what it sums is what a fresh count gives; a directory without counts still selects, and gets them.
 */
class StoredTokenCountsEngineTest {
    private static final SelectRequest MEETING = SelectRequest.of("Schedule a meeting for tomorrow at 2pm");

    @TempDir
    Path dir;

    @Test
    void the_first_selection_after_a_reopen_counts_no_definition_and_sums_as_a_fresh_count() throws Exception {
        SelectResult.Tokens first;
        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir))) {
            first = scout.select(MEETING).tokens();
            assertThat(scout.engine().tokens().countedDefinitions()).isPositive();
            awaitAllStored(scout.engine());
        }

        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir))) {
            // loaded by the open itself, before any selection (the indexer's worker may also find them, later)
            assertThat(scout.engine().tokenCountsLoaded())
                    .isEqualTo(definitionHashes(scout.engine()).size());
            SelectResult r = scout.select(MEETING);

            assertThat(scout.engine().tokens().countedDefinitions()).isZero();
            assertThat(r.tokens()).isEqualTo(first);
            assertThat(r.tokens().all()).isEqualTo(freshAll(scout.engine(), r));
        }
        // every tool's stored count is what a fresh counter gives
        Map<String, Integer> stored = storedCounts();
        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir))) {
            TokenCounter fresh = new TokenCounter();
            for (CatalogEntry e : scout.engine().catalog().snapshot().entries()) {
                assertThat(stored.get(e.contentHash())).as(e.name()).isEqualTo(fresh.definitionTokens(e.spec()));
            }
        }
    }

    @Test
    void a_directory_without_counts_selects_as_before_and_gets_its_counts_bad_rows_recounted() throws Exception {
        SelectResult.Tokens first;
        String someHash;
        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir))) {
            first = scout.select(MEETING).tokens();
            someHash = scout.engine().catalog().snapshot().entries().getFirst().contentHash();
        }
        // as a data directory made before counts were stored, with one bad row besides
        execute("DELETE FROM definition_tokens");
        execute("INSERT INTO definition_tokens (content_hash, counter, tokens) VALUES ('" + someHash + "', '"
                + TokenCounter.DEFAULT_IDENTITY + "', -5)");

        // read only: counts as before, stores nothing
        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir).withReadOnly())) {
            assertThat(scout.select(MEETING).tokens()).isEqualTo(first);
            assertThat(scout.engine().tokens().countedDefinitions()).isPositive();
        }
        assertThat(storedCounts()).containsOnlyKeys(someHash).containsEntry(someHash, -5);

        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir))) {
            assertThat(scout.select(MEETING).tokens()).isEqualTo(first);
            assertThat(scout.engine().tokens().countedDefinitions()).isPositive();
            awaitAllStored(scout.engine());
        }
        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir).withReadOnly())) {
            assertThat(scout.engine().tokenCountsLoaded())
                    .isEqualTo(definitionHashes(scout.engine()).size());
            assertThat(scout.select(MEETING).tokens()).isEqualTo(first);
            assertThat(scout.engine().tokens().countedDefinitions()).isZero();
        }
        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir))) {
            assertThat(scout.select(MEETING).tokens()).isEqualTo(first);
            assertThat(scout.engine().tokens().countedDefinitions()).isZero();
            CatalogEntry e = scout.engine().catalog().snapshot().entries().getFirst();
            assertThat(storedCounts().get(someHash)).isEqualTo(new TokenCounter().definitionTokens(e.spec()));
        }
    }

    @Test
    void a_read_only_start_without_counts_estimates_beyond_one_batch_and_is_exact_by_the_next_selection()
            throws Exception {
        List<ToolSpec> many = new ArrayList<>();
        for (int i = 0; i < StoredTokenCounts.COUNT_INLINE + 100; i++) {
            many.add(ToolSpec.builder("inventory__check_" + i, "Check the stock of warehouse " + i + ".")
                    .build());
        }
        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir).withTools(many))) {
            assertThat(scout.engine().catalog().size()).isEqualTo(many.size());
        }
        // as a directory made before counts were stored; read only, so nothing counts them in the background
        execute("DELETE FROM definition_tokens");

        try (LocalToolScout scout = LocalToolScout.open(Engine.Options.of(dir).withReadOnly())) {
            SelectResult first = scout.select(MEETING);
            // one batch counted on the request's thread, the rest taken at the mean: never the whole catalog
            assertThat(first.tokens().estimated()).isTrue();
            assertThat(json(first).path("tokens").path("estimated").asBoolean()).isTrue();
            assertThat(scout.engine().tokens().countedDefinitions())
                    .isLessThanOrEqualTo(
                            StoredTokenCounts.COUNT_INLINE + first.selected().size());

            SelectResult next = scout.select(MEETING);
            assertThat(next.tokens().estimated()).isFalse();
            assertThat(json(next).path("tokens").has("estimated")).isFalse();
            assertThat(next.tokens().all()).isEqualTo(freshAll(scout.engine(), next));
        }
    }

    private static ObjectNode json(SelectResult r) {
        ObjectNode n = JsonNodeFactory.instance.objectNode();
        SelectResultJson.write(r, n);
        return n;
    }

    /** What every definition the anonymous principal sees costs, counted afresh, with the engine's tools selected. */
    private static long freshAll(Engine engine, SelectResult r) {
        Catalog.Snapshot snap = engine.catalog().snapshot();
        TokenCounter fresh = new TokenCounter();
        long sum = fresh.allowedTokens(snap, engine.access().allowed(snap, Principal.ANONYMOUS));
        for (SelectResult.SelectedTool t : r.selected()) {
            if (snap.get(t.name()) == null) {
                sum += fresh.definitionTokens(Engine.ENGINE_TOOLS.stream()
                        .filter(s -> s.fullName().equals(t.name()))
                        .findFirst()
                        .orElseThrow());
            }
        }
        return sum;
    }

    /**
     * Waits until the indexer's worker has stored a count for every tool and engine tool (it does so in the
     * background once the open's catch-up is done); a bound on waiting, not a timing assertion.
     */
    private void awaitAllStored(Engine engine) throws Exception {
        java.util.Set<String> all = definitionHashes(engine);
        long until = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (!storedCounts().keySet().containsAll(all)) {
            if (System.nanoTime() > until) {
                throw new AssertionError("the counts were not all stored; missing "
                        + all.stream()
                                .filter(h -> !storedCountsUnchecked().containsKey(h))
                                .count() + " of " + all.size());
            }
            Thread.sleep(20);
        }
    }

    /** The content hashes of the catalog's tools and the engine's own (some of which the demo catalog holds too). */
    private static java.util.Set<String> definitionHashes(Engine engine) {
        java.util.Set<String> all = new java.util.HashSet<>();
        engine.catalog().snapshot().entries().forEach(e -> all.add(e.contentHash()));
        Engine.ENGINE_TOOLS.forEach(t -> all.add(t.contentHash()));
        return all;
    }

    private Map<String, Integer> storedCountsUnchecked() {
        try {
            return storedCounts();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private Map<String, Integer> storedCounts() throws SQLException {
        Map<String, Integer> out = new HashMap<>();
        try (Connection c = connect();
                PreparedStatement ps =
                        c.prepareStatement("SELECT content_hash, tokens FROM definition_tokens WHERE counter = ?")) {
            ps.setString(1, TokenCounter.DEFAULT_IDENTITY);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.put(rs.getString(1), rs.getInt(2));
                }
            }
        }
        return out;
    }

    private void execute(String sql) throws SQLException {
        try (Connection c = connect();
                Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection(
                "jdbc:sqlite:" + dir.resolve("state.db").toAbsolutePath());
    }
}
