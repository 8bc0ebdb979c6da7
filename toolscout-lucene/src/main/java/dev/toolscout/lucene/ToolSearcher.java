package dev.toolscout.lucene;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.SearcherFactory;

/**
 * A searcher that holds the ordinals of its segments ({@link SegmentOrds}, loaded once per segment and shared through
 * its {@link Factory}'s cache) and the highest ordinal in its reader (deleted documents included, so it errs towards
 * filtering). An allowed set that covers every ordinal up to its universe may skip the filter only if no document has
 * an ordinal past that universe (a tool added after the set was computed).
 */
final class ToolSearcher extends IndexSearcher {
    private final SegmentOrds[] segments;
    private final int maxOrd;

    /** Creates the searchers a {@code SearcherManager} hands out; one per index, with its cache. */
    static final class Factory extends SearcherFactory {
        private final Map<IndexReader.CacheKey, SegmentOrds> cache = new ConcurrentHashMap<>();

        @Override
        public IndexSearcher newSearcher(IndexReader reader, IndexReader previousReader) throws IOException {
            return new ToolSearcher(reader, cache);
        }
    }

    ToolSearcher(IndexReader reader, Map<IndexReader.CacheKey, SegmentOrds> cache) throws IOException {
        super(reader);
        setSimilarity(LuceneToolIndex.BM25);
        setQueryCache(null); // filters are per request; caching them would only churn
        List<LeafReaderContext> leaves = reader.leaves();
        segments = new SegmentOrds[leaves.size()];
        int max = -1;
        for (LeafReaderContext leaf : leaves) {
            SegmentOrds ords = cached(leaf.reader(), cache);
            segments[leaf.ord] = ords;
            max = Math.max(max, ords.maxOrd);
        }
        maxOrd = max;
    }

    private static SegmentOrds cached(LeafReader reader, Map<IndexReader.CacheKey, SegmentOrds> cache)
            throws IOException {
        IndexReader.CacheHelper helper = reader.getCoreCacheHelper();
        if (helper == null) {
            return SegmentOrds.load(reader, LuceneToolIndex.ORD);
        }
        SegmentOrds ords = cache.get(helper.getKey());
        if (ords == null) {
            ords = SegmentOrds.load(reader, LuceneToolIndex.ORD);
            cache.put(helper.getKey(), ords);
            helper.addClosedListener(cache::remove); // the segment was merged away or the index closed
        }
        return ords;
    }

    SegmentOrds segmentOrds(LeafReaderContext context) {
        return segments[context.ord];
    }

    int maxOrd() {
        return maxOrd;
    }
}
