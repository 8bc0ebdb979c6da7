package dev.toolscout.lucene;

import dev.toolscout.indexing.Hit;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.Collector;
import org.apache.lucene.search.CollectorManager;
import org.apache.lucene.search.LeafCollector;
import org.apache.lucene.search.Scorable;
import org.apache.lucene.search.ScoreMode;

/**
 * Collects the best {@code limit} documents as (score, ordinal), ordered by score descending and then
 * ordinal ascending. Lucene's own top-docs collectors break ties by document id, which depends on indexing
 * order; the contract wants ties by ordinal, so equal scores must still reach the heap. That is why the
 * minimum competitive score passed to the scorer is the heap's worst score itself, not the next float up.
 *
 * <p>Also counts the documents it saw and their lowest score, so the dense search can tell whether a tie
 * at the cut-off may have hidden more tied documents. Not thread-safe; one instance per search slice.
 */
final class TopOrdsCollector implements Collector {
    private final ToolSearcher searcher;
    private final ScoreMode scoreMode;
    private final OrdHeap heap;
    private int seen;
    private float lowestSeen = Float.POSITIVE_INFINITY;

    TopOrdsCollector(ToolSearcher searcher, int limit, ScoreMode scoreMode) {
        this.searcher = searcher;
        this.scoreMode = scoreMode;
        this.heap = new OrdHeap(limit);
    }

    /** A manager for {@code searcher.search(Query, CollectorManager)}. */
    static CollectorManager<TopOrdsCollector, TopOrdsCollector> manager(
            ToolSearcher searcher, int limit, ScoreMode scoreMode) {
        return new CollectorManager<>() {
            @Override
            public TopOrdsCollector newCollector() {
                return new TopOrdsCollector(searcher, limit, scoreMode);
            }

            @Override
            public TopOrdsCollector reduce(Collection<TopOrdsCollector> collectors) {
                TopOrdsCollector merged = new TopOrdsCollector(searcher, limit, scoreMode);
                for (TopOrdsCollector c : collectors) {
                    merged.seen += c.seen;
                    merged.lowestSeen = Math.min(merged.lowestSeen, c.lowestSeen);
                    for (int i = 0; i < c.heap.size; i++) {
                        merged.heap.offer(c.heap.scores[i], c.heap.ords[i]);
                    }
                }
                return merged;
            }
        };
    }

    @Override
    public ScoreMode scoreMode() {
        return scoreMode;
    }

    @Override
    public LeafCollector getLeafCollector(LeafReaderContext context) {
        int[] docToOrd = searcher.segmentOrds(context).docToOrd;
        return new LeafCollector() {
            private Scorable scorer;
            private float minCompetitive = Float.NEGATIVE_INFINITY;

            @Override
            public void setScorer(Scorable scorer) throws IOException {
                this.scorer = scorer;
                minCompetitive = Float.NEGATIVE_INFINITY;
                updateMinCompetitive();
            }

            @Override
            public void collect(int doc) throws IOException {
                float score = scorer.score();
                seen++;
                if (score < lowestSeen) {
                    lowestSeen = score;
                }
                if (heap.isFull() && score < heap.worstScore()) {
                    return;
                }
                int ord = docToOrd[doc];
                if (ord >= 0 && heap.offer(score, ord)) {
                    updateMinCompetitive();
                }
            }

            private void updateMinCompetitive() throws IOException {
                if (scoreMode == ScoreMode.TOP_SCORES && heap.isFull() && heap.worstScore() > minCompetitive) {
                    minCompetitive = heap.worstScore();
                    scorer.setMinCompetitiveScore(minCompetitive);
                }
            }
        };
    }

    int seen() {
        return seen;
    }

    float lowestSeen() {
        return lowestSeen;
    }

    /** The collected hits, best first, equal scores by ascending ordinal. */
    List<Hit> hits() {
        return heap.sorted();
    }

    /** The worst (score, ordinal) at the top, so a better candidate replaces it in O(log limit). */
    static final class OrdHeap {
        private final float[] scores;
        private final int[] ords;
        private int size;

        OrdHeap(int capacity) {
            scores = new float[capacity];
            ords = new int[capacity];
        }

        boolean isFull() {
            return size == scores.length;
        }

        float worstScore() {
            return scores[0];
        }

        /** Adds the candidate if there is room or it beats the worst one; returns whether it was kept. */
        boolean offer(float score, int ord) {
            if (size < scores.length) {
                scores[size] = score;
                ords[size] = ord;
                siftUp(size++);
                return true;
            }
            if (!worse(scores[0], ords[0], score, ord)) {
                return false;
            }
            scores[0] = score;
            ords[0] = ord;
            siftDown(0);
            return true;
        }

        /** Whether (s1, o1) ranks below (s2, o2): a lower score, or the same score and a higher ordinal. */
        private static boolean worse(float s1, int o1, float s2, int o2) {
            return s1 < s2 || (s1 == s2 && o1 > o2);
        }

        private void siftUp(int i) {
            while (i > 0) {
                int parent = (i - 1) >>> 1;
                if (!worse(scores[i], ords[i], scores[parent], ords[parent])) {
                    return;
                }
                swap(i, parent);
                i = parent;
            }
        }

        private void siftDown(int i) {
            while (true) {
                int left = 2 * i + 1;
                if (left >= size) {
                    return;
                }
                int child = left;
                int right = left + 1;
                if (right < size && worse(scores[right], ords[right], scores[left], ords[left])) {
                    child = right;
                }
                if (!worse(scores[child], ords[child], scores[i], ords[i])) {
                    return;
                }
                swap(i, child);
                i = child;
            }
        }

        private void swap(int a, int b) {
            float s = scores[a];
            scores[a] = scores[b];
            scores[b] = s;
            int o = ords[a];
            ords[a] = ords[b];
            ords[b] = o;
        }

        List<Hit> sorted() {
            List<Hit> out = new ArrayList<>(size);
            for (int i = 0; i < size; i++) {
                out.add(new Hit(ords[i], scores[i]));
            }
            out.sort(Hit.BEST_FIRST);
            return out;
        }
    }
}
