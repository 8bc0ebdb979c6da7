package dev.toolscout.lucene;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.toolscout.access.AllowedSet;
import dev.toolscout.indexing.Hit;
import dev.toolscout.indexing.ToolDocument;
import dev.toolscout.indexing.ToolIndex;
import dev.toolscout.indexing.ToolIndexContract;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LuceneToolIndexTest {
    private static final int DIM = 8;

    @Nested
    class InMemory extends ToolIndexContract {
        @Override
        protected ToolIndex newIndex(int dimension) {
            return LuceneToolIndex.inMemory(dimension);
        }
    }

    @Nested
    class OnDisk extends ToolIndexContract {
        @TempDir
        Path dir;

        private int opened;

        @Override
        protected ToolIndex newIndex(int dimension) {
            return LuceneToolIndex.open(dir.resolve("index-" + opened++), dimension);
        }
    }

    @TempDir
    Path dir;

    private static AllowedSet all(int universe) {
        BitSet bits = new BitSet();
        bits.set(0, universe);
        return AllowedSet.of(bits, universe);
    }

    private static float[] unit(int dimension, int axis) {
        float[] v = new float[dimension];
        v[axis] = 1;
        return v;
    }

    private static ToolDocument tool(int ord, String name, String description, String params) {
        return new ToolDocument(
                ord,
                name,
                dev.toolscout.indexing.ToolText.splitIdentifier(name),
                description,
                params,
                "",
                unit(DIM, ord % DIM));
    }

    private static List<Integer> ords(List<Hit> hits) {
        return hits.stream().map(Hit::ord).toList();
    }

    @Test
    void persisted_index_reopens_with_the_same_docs_and_version() {
        Path path = dir.resolve("tools");
        try (LuceneToolIndex index = LuceneToolIndex.open(path, DIM)) {
            index.upsert(List.of(
                    tool(0, "calendar__create_event", "Create a calendar event", ""),
                    tool(1, "gmail__send_email", "Send an email", "")));
            index.commit(42);
        }

        try (LuceneToolIndex index = LuceneToolIndex.open(path, DIM)) {
            assertThat(index.committedVersion()).isEqualTo(42);
            assertThat(index.size()).isEqualTo(2);
            assertThat(ords(index.lexical("send email", all(2), 5))).containsExactly(1);
            assertThat(ords(index.dense(unit(DIM, 0), all(2), 1))).containsExactly(0);
        }
    }

    /** The segments of the index's last commit, with their documents. */
    private static List<Integer> committedSegments(Path path) throws java.io.IOException {
        try (org.apache.lucene.store.Directory d = org.apache.lucene.store.FSDirectory.open(path);
                org.apache.lucene.index.DirectoryReader r = org.apache.lucene.index.DirectoryReader.open(d)) {
            return r.leaves().stream().map(l -> l.reader().maxDoc()).toList();
        }
    }

    /** Writes {@code count} tools from ordinal {@code from} and commits them: one segment. */
    private static void batch(LuceneToolIndex index, int from, int count, long version) {
        List<ToolDocument> docs = new ArrayList<>();
        for (int i = from; i < from + count; i++) {
            docs.add(
                    tool(i, "svc__tool_" + i, "Tool number " + i + (i % 2 == 0 ? " sends email" : " books rooms"), ""));
        }
        index.upsert(docs);
        index.commit(version);
    }

    @Test
    void compacting_merges_a_catalog_written_in_batches_into_one_segment_keeping_docs_version_and_results()
            throws Exception {
        Path path = dir.resolve("tools");
        try (LuceneToolIndex index = LuceneToolIndex.open(path, DIM)) {
            for (int b = 0; b < 3; b++) {
                batch(index, 40 * b, 40, b + 1);
            }
            assertThat(committedSegments(path)).hasSize(3);
            List<Hit> lexical = index.lexical("sends email", all(120), 10);
            List<Hit> dense = index.dense(unit(DIM, 3), all(120), 10);

            assertThat(index.compact()).isTrue();

            assertThat(committedSegments(path)).containsExactly(120);
            assertThat(index.lexical("sends email", all(120), 10)).isEqualTo(lexical);
            assertThat(index.dense(unit(DIM, 3), all(120), 10)).isEqualTo(dense);
            assertThat(index.compact()).as("one segment: nothing to do").isFalse();
        }
        try (LuceneToolIndex index = LuceneToolIndex.open(path, DIM)) {
            assertThat(index.committedVersion()).isEqualTo(3);
            assertThat(index.size()).isEqualTo(120);
        }
    }

    @Test
    void a_few_small_changes_to_a_large_index_are_merged_among_themselves_not_into_it() throws Exception {
        Path path = dir.resolve("tools");
        try (LuceneToolIndex index = LuceneToolIndex.open(path, DIM)) {
            batch(index, 0, 400, 1);
            batch(index, 400, 1, 2);
            // one tool beside 400 (under 5%) and two segments: left as it is
            assertThat(index.compact()).isFalse();
            batch(index, 401, 1, 3);
            batch(index, 402, 1, 4);
            // four segments: the three small ones become one, the large one is not rewritten
            assertThat(index.compact()).isTrue();
            assertThat(committedSegments(path)).containsExactlyInAnyOrder(400, 3);
            assertThat(index.committedVersion()).isEqualTo(4);
        }
    }

    @Test
    void a_read_only_index_searches_the_commit_it_opened_beside_the_writer_and_refuses_writes() {
        Path path = dir.resolve("tools");
        try (LuceneToolIndex writer = LuceneToolIndex.open(path, DIM)) {
            writer.upsert(List.of(
                    tool(0, "calendar__create_event", "Create a calendar event", ""),
                    tool(1, "gmail__send_email", "Send an email", "")));
            writer.commit(7);

            LuceneToolIndex reader = LuceneToolIndex.openReadOnly(path, DIM).orElseThrow();
            try {
                assertThat(reader.readOnly()).isTrue();
                assertThat(reader.committedVersion()).isEqualTo(7);
                assertThat(reader.ordinals()).containsOnlyKeys("calendar__create_event", "gmail__send_email");
                assertThat(ords(reader.lexical("send email", all(2), 5))).containsExactly(1);

                // the writer moves on; the reader keeps its commit, and the commit point tells what is newer
                writer.remove(List.of("gmail__send_email"));
                writer.upsert(List.of(tool(2, "slack__post_message", "Post a message to a channel", "")));
                writer.commit(8);
                assertThat(LuceneToolIndex.committedVersion(path)).isEqualTo(8);
                assertThat(reader.committedVersion()).isEqualTo(7);
                assertThat(reader.size()).isEqualTo(2);
                assertThat(ords(reader.lexical("send email", all(3), 5))).containsExactly(1);
                assertThat(ords(reader.dense(unit(DIM, 1), all(3), 1))).containsExactly(1);

                String refused = "the tool index at " + path + " is open read-only; cannot ";
                assertThatThrownBy(() -> reader.upsert(List.of(tool(3, "x__y", "z", ""))))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage(refused + "upsert");
                assertThatThrownBy(() -> reader.remove(List.of("calendar__create_event")))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage(refused + "remove");
                assertThatThrownBy(reader::clear)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage(refused + "clear");
                assertThatThrownBy(() -> reader.commit(9))
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessage(refused + "commit");
            } finally {
                reader.close();
            }
            // the reader held no lock: the writer still writes
            writer.upsert(List.of(tool(3, "jira__create_issue", "Create an issue", "")));
            writer.commit(9);
        }
        try (LuceneToolIndex reader = LuceneToolIndex.openReadOnly(path, DIM).orElseThrow()) {
            assertThat(reader.committedVersion()).isEqualTo(9);
            assertThat(reader.size()).isEqualTo(3);
        }
    }

    @Test
    void a_read_only_open_of_a_missing_or_empty_directory_finds_no_index_and_creates_nothing() throws Exception {
        Path missing = dir.resolve("missing");
        assertThat(LuceneToolIndex.openReadOnly(missing, DIM)).isEmpty();
        assertThat(LuceneToolIndex.committedVersion(missing)).isEqualTo(-1);
        assertThat(missing).doesNotExist();
        Path empty = java.nio.file.Files.createDirectories(dir.resolve("empty"));
        assertThat(LuceneToolIndex.openReadOnly(empty, DIM)).isEmpty();
        assertThat(LuceneToolIndex.committedVersion(empty)).isEqualTo(-1);
        assertThat(empty).isEmptyDirectory();
    }

    @Test
    void writes_not_committed_before_close_are_discarded() {
        Path path = dir.resolve("tools");
        try (LuceneToolIndex index = LuceneToolIndex.open(path, DIM)) {
            index.upsert(List.of(tool(0, "calendar__create_event", "Create a calendar event", "")));
            index.commit(1);
            index.upsert(List.of(tool(1, "gmail__send_email", "Send an email", "")));
        }

        try (LuceneToolIndex index = LuceneToolIndex.open(path, DIM)) {
            assertThat(index.committedVersion()).isEqualTo(1);
            assertThat(index.size()).isEqualTo(1);
        }
    }

    @Test
    void reopening_with_another_dimension_is_a_clear_error() {
        Path path = dir.resolve("tools");
        try (LuceneToolIndex index = LuceneToolIndex.open(path, DIM)) {
            index.upsert(List.of(tool(0, "calendar__create_event", "Create a calendar event", "")));
            index.commit(1);
        }

        assertThatThrownBy(() -> LuceneToolIndex.open(path, 16))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension " + DIM)
                .hasMessageContaining("16");
    }

    @Test
    void writes_are_invisible_until_commit() {
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(DIM)) {
            index.upsert(List.of(tool(0, "calendar__create_event", "Create a calendar event", "")));

            assertThat(index.size()).isZero();
            assertThat(index.lexical("calendar", all(1), 5)).isEmpty();

            index.commit(1);
            assertThat(index.size()).isEqualTo(1);
        }
    }

    @Test
    void name_words_are_searchable() {
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(DIM)) {
            index.upsert(List.of(
                    tool(0, "calendar__create_event", "Adds an entry to a schedule", ""),
                    tool(1, "gmail__send_email", "Send an email", "")));
            index.commit(1);

            assertThat(ords(index.lexical("create event", all(2), 5))).containsExactly(0);
            // a query naming the tool as an identifier is split the same way
            assertThat(ords(index.lexical("use calendar__create_event", all(2), 5)))
                    .containsExactly(0);
        }
    }

    @Test
    void camel_case_words_match_in_queries_and_in_descriptions() {
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(DIM)) {
            index.upsert(List.of(
                    tool(0, "plugins__FinanceTool", "Stock prices and company financials", ""),
                    tool(1, "phones__compare", "Compare iPhone models and prices", ""),
                    tool(2, "auth__login", "Returns an accessToken for the other calls", "")));
            index.commit(1);

            // a query naming the tool as written
            assertThat(ords(index.lexical("use the FinanceTool", all(3), 5))).containsExactly(0);
            // the whole word is kept as well as its parts
            assertThat(ords(index.lexical("iphone", all(3), 5))).containsExactly(1);
            assertThat(ords(index.lexical("access token", all(3), 5))).containsExactly(2);
        }
    }

    @Test
    void a_number_still_decides_between_tools_the_words_match_equally() {
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(DIM)) {
            index.upsert(List.of(
                    tool(0, "shop__get_product", "Product details from the marketplace", ""),
                    tool(1, "shop__get_1688_product", "Product details from the 1688 marketplace", "")));
            index.commit(1);

            // without the number the shorter tool wins on length; with it, the named one does
            assertThat(ords(index.lexical("product details marketplace", all(2), 5)))
                    .startsWith(0);
            assertThat(ords(index.lexical("product details 1688 marketplace", all(2), 5)))
                    .startsWith(1);
        }
    }

    @Test
    void a_name_match_outranks_a_params_only_match() {
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(DIM)) {
            index.upsert(List.of(
                    tool(0, "files__upload", "Store a document", "invoice: the invoice to attach"),
                    tool(1, "billing__invoice", "Store a document", "file: the file to attach")));
            index.commit(1);

            assertThat(ords(index.lexical("invoice", all(2), 5))).containsExactly(1, 0);
        }
    }

    @Test
    void field_weights_can_be_changed() {
        LexicalWeights paramsFirst = new LexicalWeights(0.1f, 1.0f, 5.0f, 0.8f);
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(DIM, paramsFirst)) {
            index.upsert(List.of(
                    tool(0, "files__upload", "Store a document", "invoice: the invoice to attach"),
                    tool(1, "billing__invoice", "Store a document", "file: the file to attach")));
            index.commit(1);

            assertThat(ords(index.lexical("invoice", all(2), 5))).containsExactly(0, 1);
        }
    }

    @Test
    void invalid_lexical_weights_are_rejected() {
        assertThatThrownBy(() -> new LexicalWeights(-1, 1, 1, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("nameWords")
                .hasMessageContaining("-1");
        assertThatThrownBy(() -> new LexicalWeights(0, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void stop_words_only_query_returns_nothing() {
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(DIM)) {
            index.upsert(List.of(tool(0, "web__search", "Search the web for a page", "")));
            index.commit(1);

            assertThat(index.lexical("the of a to and", all(1), 5)).isEmpty();
        }
    }

    @Test
    void word_forms_match_through_stemming() {
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(DIM)) {
            index.upsert(List.of(
                    tool(0, "gmail__send_email", "Sends emails to recipients", ""),
                    tool(1, "web__search", "Search the web", "")));
            index.commit(1);

            assertThat(ords(index.lexical("sending an email", all(2), 5))).containsExactly(0);
            assertThat(ords(index.lexical("searches", all(2), 5))).containsExactly(1);
        }
    }

    @Test
    void vectors_wider_than_lucenes_default_limit_are_indexed() {
        int wide = 1536; // OpenAI text-embedding-3-small
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(wide)) {
            index.upsert(List.of(
                    new ToolDocument(0, "a__x", "a x", "", "", "", unit(wide, 3)),
                    new ToolDocument(1, "b__x", "b x", "", "", "", unit(wide, 1000))));
            index.commit(1);

            List<Hit> hits = index.dense(unit(wide, 1000), all(2), 1);
            assertThat(ords(hits)).containsExactly(1);
            assertThat(hits.get(0).score()).isCloseTo(1f, within(1e-6f));
        }
    }

    @Test
    void dimension_out_of_range_is_a_clear_error() {
        assertThatThrownBy(() -> LuceneToolIndex.inMemory(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("dimension")
                .hasMessageContaining("0");
    }

    @Test
    void dense_search_over_many_documents_finds_the_exact_match() {
        // enough documents that Lucene walks the HNSW graph instead of scoring every document
        int dim = 32;
        List<ToolDocument> docs = randomUnitDocs(3000, dim, 7);
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(dim)) {
            index.upsert(docs);
            index.commit(1);
            BitSet odd = new BitSet();
            for (int i = 1; i < 3000; i += 2) {
                odd.set(i);
            }

            List<Hit> hits = index.dense(docs.get(1234).vector(), all(3000), 5);
            List<Hit> filtered = index.dense(docs.get(1235).vector(), AllowedSet.of(odd, 3000), 5);

            assertThat(hits.get(0).ord()).isEqualTo(1234);
            assertThat(filtered.get(0).ord()).isEqualTo(1235);
            assertThat(filtered).allMatch(h -> h.ord() % 2 == 1);
        }
    }

    @Test
    void a_small_index_is_searched_exactly_without_its_removed_tools() {
        // at most EXACT_MAX_DOCS documents: every vector is scored, so the hits are the true nearest, best first
        int dim = 32;
        List<ToolDocument> docs = randomUnitDocs(200, dim, 11);
        assertThat(docs).hasSizeLessThanOrEqualTo(LuceneToolIndex.EXACT_MAX_DOCS);
        try (LuceneToolIndex index = LuceneToolIndex.inMemory(dim)) {
            index.upsert(docs);
            index.commit(1);
            index.remove(List.of("t__7", "t__8"));
            index.commit(2);
            float[] query = docs.get(7).vector();
            List<Integer> expected = java.util.stream.IntStream.range(0, 200)
                    .boxed()
                    .filter(i -> i != 7 && i != 8)
                    .sorted(java.util.Comparator.<Integer>comparingDouble(
                                    i -> -dot(query, docs.get(i).vector()))
                            .thenComparing(i -> i))
                    .limit(20)
                    .toList();

            List<Hit> hits = index.dense(query, all(200), 20);

            assertThat(ords(hits)).isEqualTo(expected);
            assertThat(hits.get(0).score())
                    .isCloseTo(
                            (float) dot(query, docs.get(expected.get(0)).vector()),
                            org.assertj.core.data.Offset.offset(1e-5f));
        }
    }

    /** {@code count} tools {@code t__i} at ordinal i, each with a random unit vector. */
    private static List<ToolDocument> randomUnitDocs(int count, int dim, long seed) {
        Random random = new Random(seed);
        List<ToolDocument> docs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            float[] v = new float[dim];
            double norm = 0;
            for (int j = 0; j < dim; j++) {
                v[j] = (float) random.nextGaussian();
                norm += v[j] * v[j];
            }
            for (int j = 0; j < dim; j++) {
                v[j] /= (float) Math.sqrt(norm);
            }
            docs.add(new ToolDocument(i, "t__" + i, "t " + i, "", "", "", v));
        }
        return docs;
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
