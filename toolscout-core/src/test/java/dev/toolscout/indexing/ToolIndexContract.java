package dev.toolscout.indexing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.toolscout.access.AllowedSet;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The behaviour every {@link ToolIndex} must have. An implementation's test extends this class and
 * supplies {@link #newIndex(int)}; indexes it returns are closed after each test.
 *
 * <p>The randomized test prints its seed; rerun a failure with {@code -Dtests.seed=<seed>}.
 */
public abstract class ToolIndexContract {
    protected static final int DIM = 32;
    protected static final HashingEmbeddingModel EMBEDDER = new HashingEmbeddingModel(DIM);

    private final List<ToolIndex> opened = new ArrayList<>();

    /** A new, empty index for vectors of {@code dimension}. */
    protected abstract ToolIndex newIndex(int dimension);

    /** A new index of {@link #DIM} dimensions, closed after the test. */
    protected final ToolIndex index() {
        ToolIndex index = newIndex(DIM);
        opened.add(index);
        return index;
    }

    @AfterEach
    void closeIndexes() {
        for (ToolIndex index : opened) {
            index.close();
        }
        opened.clear();
    }

    // ---- fixtures

    /** A document whose name words are the split name and whose vector embeds name and description. */
    protected static ToolDocument doc(int ord, String name, String description) {
        String words = ToolText.splitIdentifier(name);
        return new ToolDocument(ord, name, words, description, "", "", EMBEDDER.embedQuery(words + " " + description));
    }

    protected static AllowedSet allowed(int universe, int... ords) {
        BitSet bits = new BitSet();
        for (int ord : ords) {
            bits.set(ord);
        }
        return AllowedSet.of(bits, universe);
    }

    protected static AllowedSet all(int universe) {
        BitSet bits = new BitSet();
        bits.set(0, universe);
        return AllowedSet.of(bits, universe);
    }

    protected static float[] unit(int dimension, int axis) {
        float[] v = new float[dimension];
        v[axis] = 1;
        return v;
    }

    private static List<Integer> ords(List<Hit> hits) {
        return hits.stream().map(Hit::ord).toList();
    }

    /** Ten tools: even ordinals are about weather, odd ones about email. */
    private static ToolIndex loadTen(ToolIndex index) {
        List<ToolDocument> docs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            docs.add(
                    i % 2 == 0
                            ? doc(i, "weather__forecast_" + i, "Get the weather forecast for a city")
                            : doc(i, "gmail__send_email_" + i, "Send an email message to a recipient"));
        }
        index.upsert(docs);
        index.commit(1);
        return index;
    }

    // ---- search inside the allowed set

    @Test
    void lexical_hits_only_allowed_ordinals() {
        ToolIndex index = loadTen(index());

        List<Hit> hits = index.lexical("weather forecast", allowed(10, 0, 2, 3, 7, 8), 10);

        assertThat(ords(hits)).containsExactlyInAnyOrder(0, 2, 8);
    }

    @Test
    void dense_hits_only_allowed_ordinals() {
        ToolIndex index = loadTen(index());
        float[] query = EMBEDDER.embedQuery("weather forecast");

        List<Hit> hits = index.dense(query, allowed(10, 1, 2, 5), 10);

        assertThat(ords(hits)).containsExactlyInAnyOrder(1, 2, 5);
        assertThat(hits.get(0).ord()).isEqualTo(2);
    }

    @Test
    void full_allowed_set_still_excludes_ordinals_beyond_its_universe() {
        // the set was computed when the catalog had 5 tools; tools 5..9 arrived since and were never checked
        ToolIndex index = loadTen(index());

        assertThat(ords(index.lexical("email weather", all(5), 10))).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        assertThat(ords(index.dense(EMBEDDER.embedQuery("email"), all(5), 10)))
                .containsExactlyInAnyOrder(0, 1, 2, 3, 4);
    }

    @Test
    void allowed_ordinals_past_the_universe_do_not_stand_in_for_missing_ones() {
        // as many ordinals as the universe, but 8 and 9 are missing: this must not read as "everything"
        ToolIndex index = loadTen(index());
        AllowedSet set = allowed(10, 0, 1, 2, 3, 4, 5, 6, 7, 12, 13);

        assertThat(ords(index.lexical("email weather", set, 10))).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
        assertThat(ords(index.dense(EMBEDDER.embedQuery("email"), set, 10)))
                .containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
    }

    @Test
    void everything_allowed_searches_every_document() {
        ToolIndex index = loadTen(index());

        assertThat(ords(index.lexical("send email", all(10), 10))).containsExactlyInAnyOrder(1, 3, 5, 7, 9);
        assertThat(index.dense(EMBEDDER.embedQuery("send email"), all(10), 10)).hasSize(10);
    }

    @Test
    void empty_allowed_set_returns_nothing() {
        ToolIndex index = loadTen(index());

        assertThat(index.lexical("weather", allowed(10), 10)).isEmpty();
        assertThat(index.dense(EMBEDDER.embedQuery("weather"), allowed(10), 10)).isEmpty();
    }

    @Test
    void dense_returns_every_allowed_document_when_fewer_than_limit() {
        ToolIndex index = loadTen(index());

        List<Hit> hits = index.dense(EMBEDDER.embedQuery("unrelated words"), allowed(10, 4, 6, 9), 5);

        assertThat(ords(hits)).containsExactlyInAnyOrder(4, 6, 9);
    }

    // ---- ranking

    @Test
    void lexical_ranks_the_matching_tool_first() {
        ToolIndex index = index();
        index.upsert(List.of(
                doc(0, "calendar__create_event", "Create an event in the user's calendar"),
                doc(1, "gmail__send_email", "Send an email to one or more recipients"),
                doc(2, "weather__forecast", "Get the weather forecast")));
        index.commit(1);

        List<Hit> hits = index.lexical("send an email to Bob", all(3), 3);

        assertThat(hits).isNotEmpty();
        assertThat(hits.get(0).ord()).isEqualTo(1);
    }

    @Test
    void every_text_field_is_searched() {
        ToolIndex index = index();
        float[] v = unit(DIM, 0);
        index.upsert(List.of(
                new ToolDocument(0, "a__x", "zebra", "", "", "", v),
                new ToolDocument(1, "b__x", "", "giraffe", "", "", v),
                new ToolDocument(2, "c__x", "", "", "pelican", "", v),
                new ToolDocument(3, "d__x", "", "", "", "walrus", v)));
        index.commit(1);

        assertThat(ords(index.lexical("zebra", all(4), 5))).containsExactly(0);
        assertThat(ords(index.lexical("giraffe", all(4), 5))).containsExactly(1);
        assertThat(ords(index.lexical("pelican", all(4), 5))).containsExactly(2);
        assertThat(ords(index.lexical("walrus", all(4), 5))).containsExactly(3);
    }

    @Test
    void dense_scores_are_cosines_best_first() {
        ToolIndex index = loadTen(index());
        ToolDocument target = doc(4, "weather__forecast_4", "Get the weather forecast for a city");

        List<Hit> hits = index.dense(target.vector(), all(10), 10);

        assertThat(hits.get(0).score()).isCloseTo(1.0f, within(1e-4f));
        for (int i = 0; i < hits.size(); i++) {
            assertThat(hits.get(i).score()).isBetween(-1.0001f, 1.0001f);
            if (i > 0) {
                assertThat(hits.get(i).score())
                        .isLessThanOrEqualTo(hits.get(i - 1).score());
            }
        }
        float[] opposite = target.vector().clone();
        for (int i = 0; i < opposite.length; i++) {
            opposite[i] = -opposite[i];
        }
        assertThat(index.dense(opposite, allowed(10, 4), 1).get(0).score()).isCloseTo(-1.0f, within(1e-4f));
    }

    @Test
    void ties_break_by_ascending_ordinal() {
        ToolIndex index = index();
        List<ToolDocument> docs = new ArrayList<>();
        // same text and vector, inserted out of ordinal order so insertion order cannot pass for ordinal order
        for (int ord : new int[] {5, 2, 8, 0, 6, 3}) {
            docs.add(new ToolDocument(ord, "twin__" + ord, "weather report", "daily", "", "", unit(DIM, 1)));
        }
        index.upsert(docs);
        index.commit(1);

        List<Hit> lexical = index.lexical("weather", all(9), 3);
        List<Hit> dense = index.dense(unit(DIM, 1), all(9), 3);

        assertThat(ords(lexical)).containsExactly(0, 2, 3);
        assertThat(ords(dense)).containsExactly(0, 2, 3);
        assertThat(lexical.get(0).score()).isEqualTo(lexical.get(2).score());
        assertThat(dense.get(0).score()).isEqualTo(dense.get(2).score());
    }

    @Test
    void limit_caps_the_number_of_hits() {
        ToolIndex index = loadTen(index());

        assertThat(index.lexical("weather email", all(10), 3)).hasSize(3);
        assertThat(index.dense(EMBEDDER.embedQuery("weather"), all(10), 4)).hasSize(4);
    }

    @Test
    void limit_below_one_is_a_clear_error() {
        ToolIndex index = loadTen(index());

        assertThatThrownBy(() -> index.lexical("weather", all(10), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit")
                .hasMessageContaining("0");
        assertThatThrownBy(() -> index.dense(unit(DIM, 0), all(10), -1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("limit")
                .hasMessageContaining("-1");
    }

    // ---- query text

    @Test
    void special_characters_in_query_do_not_throw() {
        ToolIndex index = loadTen(index());
        String[] queries = {
            "a:b (c",
            "\"unbalanced",
            "weather*",
            "email~2",
            "title:(foo",
            "[1 TO 5]",
            "{}",
            "\\",
            "/regex/",
            "+weather -email",
            "a && b || !c",
            "^3",
            "AND OR NOT",
            "weather?",
            "ÄÖÜ ß 東京 🙂",
            "\u0000"
        };
        for (String q : queries) {
            assertThatCode(() -> index.lexical(q, allowed(10, 0, 1), 10)).as(q).doesNotThrowAnyException();
            assertThat(index.lexical(q, allowed(10, 0, 1), 10)).as(q).allMatch(h -> h.ord() <= 1);
        }
    }

    @Test
    void blank_or_punctuation_only_query_returns_nothing() {
        ToolIndex index = loadTen(index());

        for (String q : new String[] {"", "   ", "?!", "... --- ()", "\t\n"}) {
            assertThat(index.lexical(q, all(10), 10)).as("'%s'", q).isEmpty();
        }
    }

    // ---- writes

    @Test
    void upsert_replaces_by_name() {
        ToolIndex index = index();
        index.upsert(List.of(doc(0, "tool__one", "weather forecast")));
        index.commit(1);
        index.upsert(List.of(doc(0, "tool__one", "send email")));
        index.commit(2);

        assertThat(index.size()).isEqualTo(1);
        assertThat(index.lexical("weather", all(1), 10)).isEmpty();
        assertThat(ords(index.lexical("email", all(1), 10))).containsExactly(0);
    }

    @Test
    void upsert_can_move_a_tool_to_another_ordinal() {
        ToolIndex index = index();
        index.upsert(List.of(doc(0, "tool__one", "weather forecast")));
        index.commit(1);
        index.upsert(List.of(doc(3, "tool__one", "weather forecast")));
        index.commit(2);

        assertThat(ords(index.lexical("weather", all(4), 10))).containsExactly(3);
        assertThat(ords(index.dense(EMBEDDER.embedQuery("weather"), all(4), 10)))
                .containsExactly(3);
    }

    @Test
    void remove_then_commit_hides_doc() {
        ToolIndex index = loadTen(index());

        index.remove(List.of("weather__forecast_2", "no__such_tool"));
        index.commit(2);

        assertThat(index.size()).isEqualTo(9);
        assertThat(ords(index.lexical("weather", all(10), 10))).containsExactlyInAnyOrder(0, 4, 6, 8);
        assertThat(ords(index.dense(EMBEDDER.embedQuery("weather"), all(10), 10)))
                .doesNotContain(2);
    }

    @Test
    void clear_then_commit_removes_everything() {
        ToolIndex index = loadTen(index());

        index.clear();
        index.commit(2);

        assertThat(index.size()).isZero();
        assertThat(index.lexical("weather", all(10), 10)).isEmpty();
        assertThat(index.dense(EMBEDDER.embedQuery("weather"), all(10), 10)).isEmpty();
        assertThat(index.committedVersion()).isEqualTo(2);
    }

    @Test
    void committed_version_round_trips() {
        ToolIndex index = index();
        assertThat(index.committedVersion()).isEqualTo(-1);

        index.upsert(List.of(doc(0, "tool__one", "weather")));
        index.commit(7);
        assertThat(index.committedVersion()).isEqualTo(7);

        index.commit(12);
        assertThat(index.committedVersion()).isEqualTo(12);
    }

    @Test
    void ordinals_map_every_committed_tool_to_its_ordinal() {
        ToolIndex index = index();
        // names out of alphabetical order, so name order and insertion order differ
        index.upsert(List.of(
                doc(4, "zoom__create_meeting", "Create a meeting"),
                doc(0, "asana__create_task", "Create a task"),
                doc(7, "mail__send", "Send mail"),
                doc(2, "box__upload", "Upload a file")));
        index.commit(1);
        index.remove(List.of("mail__send"));
        index.upsert(List.of(doc(9, "box__upload", "Upload a file")));
        index.commit(2);

        assertThat(index.ordinals())
                .isEqualTo(Map.of("zoom__create_meeting", 4, "asana__create_task", 0, "box__upload", 9));
    }

    @Test
    void new_index_is_empty() {
        ToolIndex index = index();

        assertThat(index.size()).isZero();
        assertThat(index.ordinals()).isEmpty();
        assertThat(index.lexical("weather", all(10), 10)).isEmpty();
        assertThat(index.dense(unit(DIM, 0), all(10), 10)).isEmpty();
    }

    @Test
    void wrong_dimension_is_a_clear_error() {
        ToolIndex index = loadTen(index());

        assertThatThrownBy(() -> index.dense(new float[3], all(10), 5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3")
                .hasMessageContaining(String.valueOf(DIM));
        ToolDocument bad = new ToolDocument(10, "bad__tool", "bad tool", "", "", "", new float[5]);
        assertThatThrownBy(() -> index.upsert(List.of(bad)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bad__tool")
                .hasMessageContaining("5")
                .hasMessageContaining(String.valueOf(DIM));
    }

    // ---- invariants under random input and concurrency

    @Test
    void random_catalogs_never_return_a_disallowed_ordinal() {
        long seed = Long.getLong("tests.seed", System.nanoTime());
        System.out.println(getClass().getName() + " random seed: " + seed + " (rerun with -Dtests.seed=" + seed + ")");
        Random random = new Random(seed);
        String[] vocabulary = {
            "weather",
            "forecast",
            "email",
            "send",
            "calendar",
            "event",
            "create",
            "delete",
            "file",
            "upload",
            "search",
            "web",
            "the",
            "a",
            "of",
            "to",
            "user",
            "users'",
            "GitHub",
            "issue",
            "pull",
            "request",
            "(",
            "a:b",
            "*",
            "\"",
            "stock",
            "price",
            "translate",
            "text"
        };
        ToolIndex index = index();
        Map<String, Integer> live = new HashMap<>();
        int nextOrd = 0;
        for (int round = 0; round < 4; round++) {
            List<ToolDocument> batch = new ArrayList<>();
            int adds = 10 + random.nextInt(60);
            for (int i = 0; i < adds; i++) {
                int ord = nextOrd++;
                String text = words(random, vocabulary, 1 + random.nextInt(12));
                batch.add(new ToolDocument(
                        ord,
                        "tool__" + ord,
                        words(random, vocabulary, 1 + random.nextInt(3)),
                        text,
                        random.nextBoolean() ? words(random, vocabulary, random.nextInt(6)) : "",
                        random.nextInt(4) == 0 ? null : words(random, vocabulary, random.nextInt(3)),
                        randomUnit(random)));
            }
            index.upsert(batch);
            for (ToolDocument d : batch) {
                live.put(d.name(), d.ord());
            }
            List<String> names = new ArrayList<>(live.keySet());
            names.sort(null);
            List<String> removed = new ArrayList<>();
            for (int i = random.nextInt(8); i > 0 && !names.isEmpty(); i--) {
                removed.add(names.remove(random.nextInt(names.size())));
            }
            index.remove(removed);
            removed.forEach(live::remove);
            index.commit(round);
            Set<Integer> liveOrds = new HashSet<>(live.values());
            assertThat(index.size()).as("seed %d", seed).isEqualTo(liveOrds.size());

            for (int q = 0; q < 40; q++) {
                AllowedSet allowed = randomAllowed(random, nextOrd);
                int limit = 1 + random.nextInt(15);
                String query = words(random, vocabulary, 1 + random.nextInt(4));
                float[] vector = random.nextBoolean() ? randomUnit(random) : EMBEDDER.embedQuery(query);
                String context = "seed " + seed + ", round " + round + ", query '" + query + "'";
                checkHits(index.lexical(query, allowed, limit), allowed, liveOrds, limit, context);
                checkHits(index.dense(vector, allowed, limit), allowed, liveOrds, limit, context);
            }
        }
    }

    private static void checkHits(
            List<Hit> hits, AllowedSet allowed, Set<Integer> liveOrds, int limit, String context) {
        assertThat(hits).as(context).hasSizeLessThanOrEqualTo(limit);
        assertThat(hits).as(context).allMatch(h -> allowed.contains(h.ord()), "allowed");
        assertThat(hits).as(context).allMatch(h -> liveOrds.contains(h.ord()), "live");
        assertThat(ords(hits)).as(context).doesNotHaveDuplicates();
        for (int i = 1; i < hits.size(); i++) {
            Hit prev = hits.get(i - 1);
            Hit cur = hits.get(i);
            boolean ordered = prev.score() > cur.score() || (prev.score() == cur.score() && prev.ord() < cur.ord());
            assertThat(ordered)
                    .as(context + ": best first, ties by ordinal: " + hits)
                    .isTrue();
        }
    }

    private static AllowedSet randomAllowed(Random random, int catalogSize) {
        // sometimes the set predates the newest tools (a smaller universe), sometimes it allows everything
        int universe = random.nextInt(4) == 0 ? random.nextInt(catalogSize + 1) : catalogSize;
        BitSet bits = new BitSet();
        switch (random.nextInt(4)) {
            case 0 -> bits.set(0, universe);
            case 1 -> {} // nothing allowed
            default -> {
                double density = random.nextDouble();
                for (int i = 0; i < universe; i++) {
                    if (random.nextDouble() < density) {
                        bits.set(i);
                    }
                }
            }
        }
        return AllowedSet.of(bits, universe);
    }

    private static String words(Random random, String[] vocabulary, int count) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < count; i++) {
            b.append(i == 0 ? "" : " ").append(vocabulary[random.nextInt(vocabulary.length)]);
        }
        return b.toString();
    }

    private static float[] randomUnit(Random random) {
        float[] v = new float[DIM];
        double norm = 0;
        for (int i = 0; i < DIM; i++) {
            v[i] = (float) random.nextGaussian();
            norm += v[i] * v[i];
        }
        for (int i = 0; i < DIM; i++) {
            v[i] /= (float) Math.sqrt(norm);
        }
        return v;
    }

    @Test
    void concurrent_searches_during_writes_see_only_allowed_ordinals() throws InterruptedException {
        ToolIndex index = loadTen(index());
        AllowedSet evenOnly = allowed(1000, 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean writing = new AtomicBoolean(true);
        Runnable search = () -> {
            try {
                while (writing.get()) {
                    for (Hit h : index.lexical("weather email forecast", evenOnly, 10)) {
                        assertThat(evenOnly.contains(h.ord())).isTrue();
                    }
                    for (Hit h : index.dense(EMBEDDER.embedQuery("weather"), evenOnly, 10)) {
                        assertThat(evenOnly.contains(h.ord())).isTrue();
                    }
                }
            } catch (Throwable t) {
                failures.add(t);
            }
        };
        List<Thread> readers = List.of(new Thread(search), new Thread(search));
        readers.forEach(Thread::start);
        try {
            for (int v = 2; v < 40; v++) {
                int ord = 10 + v % 20;
                index.upsert(List.of(doc(ord, "new__tool_" + ord, "weather email forecast " + v)));
                if (v % 3 == 0) {
                    index.remove(List.of("new__tool_" + (10 + (v - 1) % 20)));
                }
                index.commit(v);
            }
        } finally {
            writing.set(false);
            for (Thread t : readers) {
                t.join();
            }
        }

        assertThat(failures).isEmpty();
        assertThat(index.committedVersion()).isEqualTo(39);
    }
}
