package dev.toolscout.lucene;

import static org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat.DEFAULT_BEAM_WIDTH;
import static org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat.DEFAULT_MAX_CONN;

import dev.toolscout.access.AllowedSet;
import dev.toolscout.indexing.Hit;
import dev.toolscout.indexing.ToolDocument;
import dev.toolscout.indexing.ToolIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.FieldType;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FieldInfos;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.PostingsEnum;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.Terms;
import org.apache.lucene.index.TermsEnum;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.VectorScorer;
import org.apache.lucene.search.similarities.BM25Similarity;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.NRTCachingDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;
import org.apache.lucene.util.IOUtils;

/**
 * A {@link ToolIndex} over Apache Lucene: BM25 over four text fields and HNSW over the tool vectors, both
 * searched inside the caller's {@link AllowedSet}.
 *
 * <p><b>Documents.</b> {@code name} (keyword, stored; upserts replace by it), {@code ord} (doc values and
 * stored), the analyzed text fields {@code name_words}, {@code description}, {@code params}, {@code
 * labels} and {@code all} (the four as one, for plain BM25 over the whole tool text), and {@code vector} ({@link VectorSimilarityFunction#DOT_PRODUCT}; vectors must be unit length).
 *
 * <p><b>Lexical.</b> The query is run through the same analyzer as the documents (never a query parser, so
 * user text cannot be syntax) and becomes, per term and field, a BM25 term query (k1 1.2, b 0.75) boosted
 * by the field's {@link LexicalWeights}; a document's score is the sum. Only the first {@value
 * #MAX_QUERY_TERMS} distinct terms of a query are used, which keeps a pasted document under Lucene's
 * clause limit. Analyzer ({@link ToolAnalyzer}): standard tokenizer after splitting {@code _} and
 * letter-{@code .}-letter, English possessive, lower case, English stop words, KStem. Measured on the
 * tool-retrieval development sets (mean nDCG@10 over nine sets, see {@link LexicalWeights}): KStem 56.6
 * and Porter 56.7 (a tie: Porter won on metatool, KStem on seal-tools and gorilla-hf), the minimal plural
 * stemmer 56.2, no stemming 54.4; KStem is kept as the less aggressive of the two. Splitting identifiers
 * added 0.3 (toollens, gorilla-hf and toolink descriptions hold {@code snake_case} names).
 *
 * <p><b>Dense.</b> A {@link KnnFloatVectorQuery} pre-filtered by the allowed set: Lucene computes the
 * accepted documents first and scores exactly when few remain. HNSW uses Lucene's defaults (M 16, beam
 * width 100), built while indexing. Lucene scores a dot product as {@code (1 + dot) / 2}; hits carry the
 * cosine {@code 2 * score - 1}. Run the JVM with {@code --add-modules jdk.incubator.vector} so Lucene uses
 * SIMD (dense search about 1.5 times faster at 384 dimensions).
 *
 * <p><b>Filtering.</b> An {@link AllowedOrdsQuery}, as a FILTER clause and as the kNN filter, checks
 * ordinals in per-segment arrays loaded once from the ordinal doc values ({@link SegmentOrds}); a
 * doc-values decode per document made the kNN filter cost milliseconds at 100k tools. Skipped when the set
 * allows every ordinal the index holds. Ties are broken by ordinal, not Lucene's document id, by {@link
 * TopOrdsCollector}.
 *
 * <p><b>Cost</b> (2 shared cores, 384 dimensions, random vectors, CPU time per search, limit 10): at 10k
 * tools a short query (metatool) takes 0.6 to 0.9 ms lexical and 0.1 to 0.4 ms dense; at 100k, 1 to 2.4
 * ms and 0.2 to 1.5 ms (the upper ends with half of the tools allowed). Lexical cost grows with the
 * distinct query terms: seal-tools requests (32 on average) take 1.5 ms at 10k and 2.6 to 5.5 ms at 100k.
 * Indexing is dominated by the HNSW graph: about 1 ms per document per core at 384 dimensions.
 *
 * <p><b>Writes.</b> One {@link IndexWriter} with a {@value #RAM_BUFFER_MB} MB buffer (bulk loads flush
 * rarely). Writes become visible at {@link #refresh()} (a near-real-time reopen on the writer: a new segment, no
 * fsync) and visible and durable at {@link #commit(long)}, which records {@code catalog_version} in the commit's user
 * data and reopens the searcher; closing without a commit discards them, so the recorded version always describes the
 * committed documents. The tool indexer refreshes often and commits rarely ({@code CommitPolicy}).
 *
 * <p>Thread-safe: any number of concurrent searches and one writer.
 */
public final class LuceneToolIndex implements ToolIndex {
    static final String NAME = "name";
    static final String ORD = "ord";
    static final String NAME_WORDS = "name_words";
    static final String DESCRIPTION = "description";
    static final String PARAMS = "params";
    static final String LABELS = "labels";
    static final String ALL = "all";
    static final String VECTOR = "vector";
    static final String VERSION_KEY = "catalog_version";
    static final String FORMAT_KEY = "index_format";

    /**
     * The document layout and tool text this code writes. An index committed with another (or none) reports
     * catalog version -1, so the indexer rebuilds it from the store: 2 added the combined {@code all} field
     * and changed {@code ToolText.nameWords}; 3 splits camelCase words ({@link ToolAnalyzer}); 4 spells out
     * abbreviations in name words ({@code NameAbbreviations}); 5 keeps original names with digit words in the
     * name words (docs/FITTED_RULES.md).
     */
    static final String FORMAT = "5";

    /** Distinct query terms used at most (each becomes up to four clauses; Lucene allows 1024). */
    static final int MAX_QUERY_TERMS = 64;
    /** Up to this many documents a vector search scores every one (see {@link #dense}), whatever it asks for. */
    static final int EXACT_MAX_DOCS = 256;

    static final int RAM_BUFFER_MB = 256;
    /** A segment up to this size (MB) written by a refresh or a merge stays in memory until the next commit. */
    static final double NRT_CACHE_SEGMENT_MB = 4;
    /** The most (MB) held in memory that way; past it, new segments go straight to disk. */
    static final double NRT_CACHE_MB = 64;
    /** Segments per tier and per merge of the merge policy (Lucene's default is 10). */
    static final int MERGE_SEGMENTS_PER_TIER = 20;

    static final BM25Similarity BM25 = new BM25Similarity(1.2f, 0.75f);

    private final String location;
    private final Directory directory;
    private final int dimension;
    private final Analyzer analyzer;
    private final IndexWriter writer;
    private final SearcherManager searchers;
    private final FieldType vectorType;
    private final String[] fields;
    private final float[] fieldWeights;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** {@link #compact} merges every segment when those beside the largest hold at least this share of documents. */
    static final int COMPACT_SHARE_PERCENT = 5;
    /** {@link #compact} merges the segments beside the largest when there are at least this many in all. */
    static final int COMPACT_SEGMENTS = 4;

    private volatile long committedVersion;

    private LuceneToolIndex(
            String location,
            Directory directory,
            int dimension,
            LexicalWeights weights,
            Analyzer analyzer,
            IndexWriter writer,
            SearcherManager searchers,
            long committedVersion) {
        this.location = location;
        this.directory = directory;
        this.dimension = dimension;
        this.analyzer = analyzer;
        this.writer = writer;
        this.searchers = searchers;
        this.committedVersion = committedVersion;
        this.vectorType = KnnFloatVectorField.createFieldType(dimension, VectorSimilarityFunction.DOT_PRODUCT);
        List<String> names = new ArrayList<>(4);
        List<Float> values = new ArrayList<>(4);
        addField(names, values, NAME_WORDS, weights.nameWords());
        addField(names, values, DESCRIPTION, weights.description());
        addField(names, values, PARAMS, weights.params());
        addField(names, values, LABELS, weights.labels());
        addField(names, values, ALL, weights.all());
        this.fields = names.toArray(String[]::new);
        this.fieldWeights = new float[values.size()];
        for (int i = 0; i < fieldWeights.length; i++) {
            fieldWeights[i] = values.get(i);
        }
    }

    private static void addField(List<String> names, List<Float> values, String field, float weight) {
        if (weight > 0) {
            names.add(field);
            values.add(weight);
        }
    }

    /**
     * Opens (or creates) an index in {@code dir} with the {@link LexicalWeights#DEFAULTS}.
     *
     * @throws IllegalArgumentException if the index there holds vectors of another dimension
     * @throws UncheckedIOException if the directory cannot be read or written
     */
    public static LuceneToolIndex open(Path dir, int dimension) {
        return open(dir, dimension, LexicalWeights.DEFAULTS);
    }

    /** Opens (or creates) an index in {@code dir}; see {@link #open(Path, int)}. */
    public static LuceneToolIndex open(Path dir, int dimension, LexicalWeights weights) {
        Objects.requireNonNull(dir, "dir");
        checkDimension(dimension);
        try {
            Files.createDirectories(dir);
            // a change made searchable before its commit (refresh) is a small segment of its own: kept in memory until
            // the commit writes and syncs it, so a reopen per change touches no file (Lucene's NRTCachingDirectory,
            // made for a low write rate with a reopen per write; large flushes and merges go straight to disk)
            Directory files = new NRTCachingDirectory(FSDirectory.open(dir), NRT_CACHE_SEGMENT_MB, NRT_CACHE_MB);
            return create(dir.toString(), files, dimension, weights, new ToolAnalyzer());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the tool index at " + dir + ": " + e.getMessage(), e);
        }
    }

    /** A new index held in memory, with the {@link LexicalWeights#DEFAULTS}. */
    public static LuceneToolIndex inMemory(int dimension) {
        return inMemory(dimension, LexicalWeights.DEFAULTS);
    }

    /** A new index held in memory. */
    public static LuceneToolIndex inMemory(int dimension, LexicalWeights weights) {
        checkDimension(dimension);
        try {
            return create("memory", new ByteBuffersDirectory(), dimension, weights, new ToolAnalyzer());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Takes ownership of {@code directory} and {@code analyzer}: both are closed with the index. */
    static LuceneToolIndex create(
            String location, Directory directory, int dimension, LexicalWeights weights, Analyzer analyzer)
            throws IOException {
        Objects.requireNonNull(weights, "weights");
        IndexWriter writer = null;
        SearcherManager searchers = null;
        try {
            long version = -1;
            if (DirectoryReader.indexExists(directory)) {
                version = version(SegmentInfos.readLatestCommit(directory).getUserData());
            }
            IndexWriterConfig config = new IndexWriterConfig(analyzer)
                    .setOpenMode(IndexWriterConfig.OpenMode.CREATE_OR_APPEND)
                    .setCodec(new ToolCodec(DEFAULT_MAX_CONN, DEFAULT_BEAM_WIDTH))
                    .setSimilarity(BM25)
                    .setRAMBufferSizeMB(RAM_BUFFER_MB)
                    // merging HNSW graphs re-inserts the nodes of every segment but the largest: in a bulk load it took
                    // twice the CPU of the indexer's own insertions (JFR, docs/BENCHMARKS.md "A million tools"); wider
                    // tiers merge each document fewer times (log base 20, not 10, of the segments a load flushes)
                    .setMergePolicy(new TieredMergePolicy()
                            .setSegmentsPerTier(MERGE_SEGMENTS_PER_TIER)
                            .setMaxMergeAtOnce(MERGE_SEGMENTS_PER_TIER))
                    // uncommitted writes are dropped on close, so catalog_version never lies
                    .setCommitOnClose(false);
            writer = new IndexWriter(directory, config);
            searchers = new SearcherManager(writer, true, false, new ToolSearcher.Factory());
            checkStoredDimension(location, searchers, dimension);
            return new LuceneToolIndex(location, directory, dimension, weights, analyzer, writer, searchers, version);
        } catch (IOException | RuntimeException e) {
            IOUtils.closeWhileHandlingException(searchers, writer, directory, analyzer);
            throw e;
        }
    }

    /**
     * Opens the index last committed in {@code dir} for searching only, beside a process that may be writing
     * it: a plain {@link DirectoryReader} on that commit, no {@link IndexWriter}, no lock, nothing written (the
     * directory is not even created). Searches see that commit for as long as this index is open; files a later
     * commit of the writer deletes stay readable (the reader holds them open). Every write method throws {@link
     * IllegalStateException}. {@link #committedVersion} is the catalog version recorded in that commit, or -1
     * when it was written with another document layout.
     *
     * @return empty when {@code dir} holds no committed index
     * @throws IllegalArgumentException if the index holds vectors of another dimension
     * @throws UncheckedIOException if the index cannot be read
     */
    public static java.util.Optional<LuceneToolIndex> openReadOnly(Path dir, int dimension) {
        Objects.requireNonNull(dir, "dir");
        checkDimension(dimension);
        if (!Files.isDirectory(dir)) {
            return java.util.Optional.empty(); // FSDirectory.open would create it
        }
        Directory directory = null;
        DirectoryReader reader = null;
        SearcherManager searchers = null;
        Analyzer analyzer = new ToolAnalyzer();
        try {
            // no lock factory: only a writer locks, and this never writes
            directory = FSDirectory.open(dir, org.apache.lucene.store.NoLockFactory.INSTANCE);
            if (!DirectoryReader.indexExists(directory)) {
                IOUtils.close(directory, analyzer);
                return java.util.Optional.empty();
            }
            // opening retries by itself when a concurrent commit deletes the files of the one it started on
            reader = DirectoryReader.open(directory);
            long version = version(reader.getIndexCommit().getUserData());
            searchers = new SearcherManager(reader, new ToolSearcher.Factory());
            reader = null; // the manager owns it now
            checkStoredDimension(dir.toString(), searchers, dimension);
            return java.util.Optional.of(new LuceneToolIndex(
                    dir.toString(), directory, dimension, LexicalWeights.DEFAULTS, analyzer, null, searchers, version));
        } catch (IOException e) {
            IOUtils.closeWhileHandlingException(reader, searchers, directory, analyzer);
            throw new UncheckedIOException(
                    "cannot open the tool index at " + dir + " for reading: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            IOUtils.closeWhileHandlingException(reader, searchers, directory, analyzer);
            throw e;
        }
    }

    /**
     * The catalog version recorded by the last commit in {@code dir}, reading only its commit point (cheap, no
     * lock, nothing written): -1 when there is no index or it was written with another document layout.
     *
     * @throws UncheckedIOException if the commit point cannot be read
     */
    public static long committedVersion(Path dir) {
        Objects.requireNonNull(dir, "dir");
        if (!Files.isDirectory(dir)) {
            return -1;
        }
        try (Directory directory = FSDirectory.open(dir, org.apache.lucene.store.NoLockFactory.INSTANCE)) {
            if (!DirectoryReader.indexExists(directory)) {
                return -1;
            }
            return version(SegmentInfos.readLatestCommit(directory).getUserData());
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the commit of the tool index at " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The catalog version in a commit's user data, or -1 for none or another document layout. */
    private static long version(Map<String, String> user) {
        String v = user.get(VERSION_KEY);
        return v == null || !FORMAT.equals(user.get(FORMAT_KEY)) ? -1 : Long.parseLong(v);
    }

    /** Whether this index was opened with {@link #openReadOnly} (it has no writer). */
    public boolean readOnly() {
        return writer == null;
    }

    /** The writer, or a clear error on an index opened read-only. */
    private IndexWriter writer(String operation) {
        if (writer == null) {
            throw new IllegalStateException(
                    "the tool index at " + location + " is open read-only; cannot " + operation);
        }
        return writer;
    }

    private static void checkDimension(int dimension) {
        if (dimension < 1 || dimension > ToolCodec.MAX_DIMENSIONS) {
            throw new IllegalArgumentException(
                    "dimension must be between 1 and " + ToolCodec.MAX_DIMENSIONS + ", got: " + dimension);
        }
    }

    private static void checkStoredDimension(String location, SearcherManager searchers, int dimension)
            throws IOException {
        IndexSearcher searcher = searchers.acquire();
        try {
            FieldInfo info =
                    FieldInfos.getMergedFieldInfos(searcher.getIndexReader()).fieldInfo(VECTOR);
            if (info != null && info.getVectorDimension() != dimension) {
                throw new IllegalArgumentException("the tool index at "
                        + location
                        + " holds vectors of dimension "
                        + info.getVectorDimension()
                        + ", asked for "
                        + dimension
                        + "; rebuild it (delete the directory) or use the embedding model it was built with");
            }
        } finally {
            searchers.release(searcher);
        }
    }

    /** The vector dimension this index accepts. */
    public int dimension() {
        return dimension;
    }

    @Override
    public void upsert(Collection<ToolDocument> docs) {
        // validate the whole batch first, so a bad document does not leave half of it written
        for (ToolDocument doc : docs) {
            checkDocument(doc);
        }
        IndexWriter w = writer("upsert");
        try {
            // one thread: documents written from several fill a buffer each, and each refresh then flushes one
            // segment per thread, whose HNSW graphs merges rebuild (the larger part of a bulk load's cost)
            for (ToolDocument doc : docs) {
                w.updateDocument(new Term(NAME, doc.name()), toLucene(doc));
            }
        } catch (IOException e) {
            throw failure("upsert", e);
        }
    }

    private void checkDocument(ToolDocument doc) {
        if (doc.ord() < 0) {
            throw new IllegalArgumentException("ord must be >= 0, got: " + doc.ord() + " (tool '" + doc.name() + "')");
        }
        float[] v = doc.vector();
        if (v.length != dimension) {
            throw new IllegalArgumentException("vector of tool '"
                    + doc.name()
                    + "' has dimension "
                    + v.length
                    + ", the index expects "
                    + dimension);
        }
        for (int i = 0; i < v.length; i++) {
            if (!Float.isFinite(v[i])) {
                throw new IllegalArgumentException(
                        "vector of tool '" + doc.name() + "' has a non-finite value at index " + i + ": " + v[i]);
            }
        }
    }

    private Document toLucene(ToolDocument doc) {
        Document d = new Document();
        d.add(new StringField(NAME, doc.name(), Field.Store.YES));
        d.add(new NumericDocValuesField(ORD, doc.ord()));
        d.add(new StoredField(ORD, doc.ord()));
        addText(d, NAME_WORDS, doc.nameWords());
        addText(d, DESCRIPTION, doc.description());
        addText(d, PARAMS, doc.parameterText());
        addText(d, LABELS, doc.labels());
        addText(
                d,
                ALL,
                String.join(
                                " ",
                                nonNull(doc.nameWords()),
                                nonNull(doc.description()),
                                nonNull(doc.parameterText()),
                                nonNull(doc.labels()))
                        .strip());
        d.add(new KnnFloatVectorField(VECTOR, doc.vector(), vectorType));
        return d;
    }

    private static String nonNull(String s) {
        return s == null ? "" : s;
    }

    private static void addText(Document d, String field, String text) {
        if (text != null && !text.isEmpty()) {
            d.add(new TextField(field, text, Field.Store.NO));
        }
    }

    @Override
    public void remove(Collection<String> toolNames) {
        Term[] terms = toolNames.stream().map(n -> new Term(NAME, n)).toArray(Term[]::new);
        IndexWriter w = writer("remove");
        try {
            w.deleteDocuments(terms);
        } catch (IOException e) {
            throw failure("remove", e);
        }
    }

    @Override
    public void clear() {
        IndexWriter w = writer("clear");
        try {
            w.deleteAll();
        } catch (IOException e) {
            throw failure("clear", e);
        }
    }

    @Override
    public synchronized void commit(long catalogVersion) {
        if (catalogVersion < 0) {
            throw new IllegalArgumentException("catalogVersion must be >= 0, got: " + catalogVersion);
        }
        IndexWriter w = writer("commit");
        try {
            w.setLiveCommitData(Map.of(VERSION_KEY, Long.toString(catalogVersion), FORMAT_KEY, FORMAT)
                    .entrySet());
            w.commit();
            committedVersion = catalogVersion;
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw failure("commit", e);
        }
    }

    /**
     * Reopens the searchers on the writer's documents (near-real-time: Lucene flushes them to a new segment and reads it
     * without a commit, so nothing is fsynced). Blocks until the new searchers are in place.
     */
    @Override
    public void refresh() {
        writer("refresh");
        try {
            searchers.maybeRefreshBlocking();
        } catch (IOException e) {
            throw failure("refresh", e);
        }
    }

    @Override
    public long committedVersion() {
        return committedVersion;
    }

    /**
     * Merges the index's segments when searches would gain. Every search visits each segment (its terms, its vector
     * graph), and a catalog written in batches ends up in several: 8 for seal-tools' 4,076 tools written 256 at a
     * time, where a selection took p50 9.49 ms against 8.33 ms in one segment (docs/INDEXING.md, "Compaction").
     * Merges all into one when the segments beside the largest hold at least {@value #COMPACT_SHARE_PERCENT}% of the
     * documents; else, when there are {@value #COMPACT_SEGMENTS} or more, the smaller ones into one (a few small
     * changes to a large catalog do not rewrite it). Then commits (the catalog version unchanged) and refreshes the searchers. Blocks
     * while it merges (about 1 s per 4,000 tools on one core); call it from the index's one writer thread.
     */
    @Override
    public synchronized boolean compact() {
        IndexWriter w = writer("compact");
        try {
            IndexSearcher searcher = searchers.acquire();
            int segments;
            long total = 0;
            long largest = 0;
            try {
                List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
                segments = leaves.size();
                for (LeafReaderContext leaf : leaves) {
                    total += leaf.reader().maxDoc();
                    largest = Math.max(largest, leaf.reader().maxDoc());
                }
            } finally {
                searchers.release(searcher);
            }
            int target;
            if (segments > 1 && (total - largest) * 100 >= COMPACT_SHARE_PERCENT * total) {
                target = 1;
            } else if (segments >= COMPACT_SEGMENTS) {
                target = 2;
            } else {
                return false;
            }
            w.forceMerge(target);
            w.commit(); // the last commit's catalog version, which the writer keeps
            searchers.maybeRefreshBlocking();
            return true;
        } catch (IOException e) {
            throw failure("compact", e);
        }
    }

    @Override
    public int size() {
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                return searcher.getIndexReader().numDocs();
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw failure("size", e);
        }
    }

    @Override
    public Map<String, Integer> ordinals() {
        // walk the name terms (one per live tool) rather than stored fields: no document decoding; postings
        // visit documents out of order across names, so the ordinal comes from the segment's array
        try {
            ToolSearcher searcher = (ToolSearcher) searchers.acquire();
            try {
                Map<String, Integer> out = new HashMap<>();
                for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                    Terms terms = leaf.reader().terms(NAME);
                    if (terms == null) {
                        continue;
                    }
                    Bits live = leaf.reader().getLiveDocs();
                    int[] docToOrd = searcher.segmentOrds(leaf).docToOrd;
                    TermsEnum te = terms.iterator();
                    PostingsEnum postings = null;
                    for (BytesRef term = te.next(); term != null; term = te.next()) {
                        postings = te.postings(postings, PostingsEnum.NONE);
                        for (int doc = postings.nextDoc();
                                doc != DocIdSetIterator.NO_MORE_DOCS;
                                doc = postings.nextDoc()) {
                            if ((live == null || live.get(doc)) && docToOrd[doc] >= 0) {
                                out.put(term.utf8ToString(), docToOrd[doc]);
                            }
                        }
                    }
                }
                return out;
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw failure("ordinals", e);
        }
    }

    @Override
    public List<Hit> lexical(String query, AllowedSet allowed, int limit) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(allowed, "allowed");
        checkLimit(limit);
        if (allowed.isEmpty()) {
            return List.of();
        }
        try {
            Set<String> terms = analyze(query);
            if (terms.isEmpty()) {
                return List.of();
            }
            BooleanQuery.Builder text = new BooleanQuery.Builder();
            for (String term : terms) {
                for (int f = 0; f < fields.length; f++) {
                    text.add(new BoostQuery(new TermQuery(new Term(fields[f], term)), fieldWeights[f]), Occur.SHOULD);
                }
            }
            ToolSearcher searcher = (ToolSearcher) searchers.acquire();
            try {
                int cap = cap(limit, allowed, searcher);
                if (cap == 0) {
                    return List.of();
                }
                Query filter = filterFor(allowed, searcher);
                Query q = text.build();
                if (filter != null) {
                    q = new BooleanQuery.Builder()
                            .add(q, Occur.MUST)
                            .add(filter, Occur.FILTER)
                            .build();
                }
                return searcher.search(q, TopOrdsCollector.manager(searcher, cap, ScoreMode.TOP_SCORES))
                        .hits();
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw failure("lexical search", e);
        }
    }

    /** The distinct analyzed terms of {@code text}, in order, at most {@link #MAX_QUERY_TERMS}. */
    private Set<String> analyze(String text) throws IOException {
        Set<String> terms = new LinkedHashSet<>();
        try (TokenStream ts = analyzer.tokenStream(NAME_WORDS, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (terms.size() < MAX_QUERY_TERMS && ts.incrementToken()) {
                terms.add(term.toString());
            }
            ts.end();
        }
        return terms;
    }

    @Override
    public List<Hit> dense(float[] queryVector, AllowedSet allowed, int limit) {
        Objects.requireNonNull(queryVector, "queryVector");
        Objects.requireNonNull(allowed, "allowed");
        if (queryVector.length != dimension) {
            throw new IllegalArgumentException(
                    "query vector has dimension " + queryVector.length + ", the index expects " + dimension);
        }
        checkLimit(limit);
        if (allowed.isEmpty()) {
            return List.of();
        }
        try {
            ToolSearcher searcher = (ToolSearcher) searchers.acquire();
            try {
                int cap = cap(limit, allowed, searcher);
                if (cap == 0) {
                    return List.of();
                }
                Query filter = filterFor(allowed, searcher);
                int numDocs = searcher.getIndexReader().numDocs();
                // Twice as many as needed: the graph search explores more and finds the true nearest more often (a
                // compacted index is one graph, where several segments' graphs each explored their own k: toolink N@10
                // 45.1 with k = cap + 1 in one segment, 45.6 with this, as in eight segments; docs/INDEXING.md). And
                // one
                // more, so a tie at the cut-off is visible: Lucene keeps the lowest doc ids among tied vectors; if the
                // last one fetched ties with the last one kept, more tied documents (with lower ordinals) may have been
                // left out, so search again with twice as many.
                int k = Math.min(2 * cap + 1, numDocs);
                if (filter == null && numDocs <= Math.max(2 * k, EXACT_MAX_DOCS)) {
                    // a small index (apibank's 101 tools, metatool's 199 at depth 50), or one a search asks for much
                    // of: the
                    // graph search would visit about every vector through the graph, at several times the cost of
                    // scoring
                    // each once (and Lucene takes a filter that allows every document for none, searching the graph)
                    return toCosine(exactDense(searcher, queryVector, cap));
                }
                while (true) {
                    TopOrdsCollector top = searcher.search(
                            new KnnFloatVectorQuery(VECTOR, queryVector, k, filter),
                            TopOrdsCollector.manager(searcher, cap, ScoreMode.COMPLETE));
                    List<Hit> hits = top.hits();
                    boolean mayHideTies = top.seen() >= k
                            && k < numDocs
                            && hits.size() == cap
                            && hits.get(cap - 1).score() == top.lowestSeen();
                    if (!mayHideTies) {
                        return toCosine(hits);
                    }
                    k = (int) Math.min(2L * k, numDocs);
                }
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw failure("dense search", e);
        }
    }

    /**
     * Every live document's vector scored against {@code queryVector} with the index's own scorer (Lucene's DOT_PRODUCT
     * score, as the graph search gives it), the best {@code cap} kept, ties by ordinal.
     */
    private static List<Hit> exactDense(ToolSearcher searcher, float[] queryVector, int cap) throws IOException {
        TopOrdsCollector.OrdHeap heap = new TopOrdsCollector.OrdHeap(cap);
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
            FloatVectorValues values = leaf.reader().getFloatVectorValues(VECTOR);
            if (values == null) {
                continue;
            }
            VectorScorer scorer = values.scorer(queryVector);
            if (scorer == null) {
                continue;
            }
            Bits live = leaf.reader().getLiveDocs();
            int[] docToOrd = searcher.segmentOrds(leaf).docToOrd;
            DocIdSetIterator it = scorer.iterator();
            for (int doc = it.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = it.nextDoc()) {
                if ((live == null || live.get(doc)) && docToOrd[doc] >= 0) {
                    heap.offer(scorer.score(), docToOrd[doc]);
                }
            }
        }
        return heap.sorted();
    }

    /** Lucene's DOT_PRODUCT score {@code (1 + dot) / 2} back to the dot product (the cosine). */
    private static List<Hit> toCosine(List<Hit> hits) {
        List<Hit> out = new ArrayList<>(hits.size());
        for (Hit h : hits) {
            out.add(new Hit(h.ord(), 2 * h.score() - 1));
        }
        out.sort(Hit.BEST_FIRST); // rounding can turn two scores into one cosine; keep ties by ordinal
        return out;
    }

    private static void checkLimit(int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got: " + limit);
        }
    }

    /** The most hits a search can return: bounds the collector's heap. */
    private static int cap(int limit, AllowedSet allowed, IndexSearcher searcher) {
        return Math.min(
                limit, Math.min(allowed.cardinality(), searcher.getIndexReader().numDocs()));
    }

    /** The filter for {@code allowed}, or null when it allows every ordinal the index holds. */
    private static Query filterFor(AllowedSet allowed, ToolSearcher searcher) {
        int universe = allowed.universe();
        // every ordinal below the universe is set only if none is set at or above it
        boolean allBelowUniverse = allowed.cardinality() == universe && allowed.nextAllowed(universe) < 0;
        if (allBelowUniverse && searcher.maxOrd() < universe) {
            return null;
        }
        return new AllowedOrdsQuery(allowed);
    }

    /**
     * Reads every file of the committed index through its checksum (Lucene's {@code checkIntegrity}), so a
     * damaged file shows here, at open, rather than as a wrong or failed search later. Reads the whole index once
     * (its cost grows with the index size; the engine runs it on the thread that opens the index, beside the
     * store).
     *
     * @throws UncheckedIOException (a {@code CorruptIndexException} cause) when a file does not match
     */
    public void checkIntegrity() {
        try {
            IndexSearcher searcher = searchers.acquire();
            try {
                for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                    leaf.reader().checkIntegrity();
                }
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw failure("checkIntegrity", e);
        }
    }

    private UncheckedIOException failure(String what, IOException e) {
        return new UncheckedIOException(what + " failed on the tool index at " + location + ": " + e.getMessage(), e);
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        try {
            IOUtils.close(searchers, writer, directory, analyzer);
        } catch (IOException e) {
            throw failure("close", e);
        }
    }

    @Override
    public String toString() {
        return "LuceneToolIndex(" + location + ", dimension " + dimension + ")";
    }
}
