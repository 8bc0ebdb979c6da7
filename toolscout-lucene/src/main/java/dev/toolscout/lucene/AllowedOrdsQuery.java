package dev.toolscout.lucene;

import dev.toolscout.access.AllowedSet;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.search.ConstantScoreScorer;
import org.apache.lucene.search.ConstantScoreWeight;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.QueryVisitor;
import org.apache.lucene.search.ScoreMode;
import org.apache.lucene.search.Scorer;
import org.apache.lucene.search.ScorerSupplier;
import org.apache.lucene.search.TwoPhaseIterator;
import org.apache.lucene.search.Weight;
import org.apache.lucene.util.BitSetIterator;
import org.apache.lucene.util.FixedBitSet;

/**
 * Matches the documents whose ordinal is in an {@link AllowedSet}. Used as a FILTER clause of the lexical
 * query and as the pre-filter of the kNN query, so access control runs before ranking. Works only on a
 * {@link ToolSearcher}, whose per-segment ordinal arrays make the check an array read and a bit test.
 *
 * <p>Like Lucene's {@code IndexOrDocValuesQuery}, it picks its form from what the search needs: a small
 * allowed set becomes a bit set of its documents (found through the ordinal-sorted view, so it can lead a
 * conjunction); a large one is checked document by document when few candidates will be asked about (a
 * rare query term), or turned into a bit set in one pass over the segment otherwise (the kNN filter,
 * which Lucene needs as a bit set anyway and then uses as is).
 *
 * <p>Equality is identity of the allowed set: two principals' sets are never confused, and the query is
 * never cached (a cache keyed by a per-request set would only churn).
 */
final class AllowedOrdsQuery extends Query {
    private final AllowedSet allowed;

    AllowedOrdsQuery(AllowedSet allowed) {
        this.allowed = allowed;
    }

    @Override
    public Weight createWeight(IndexSearcher searcher, ScoreMode scoreMode, float boost) {
        if (!(searcher instanceof ToolSearcher tools)) {
            throw new IllegalStateException("AllowedOrdsQuery runs only on a LuceneToolIndex searcher");
        }
        return new ConstantScoreWeight(this, boost) {
            @Override
            public ScorerSupplier scorerSupplier(LeafReaderContext context) {
                SegmentOrds ords = tools.segmentOrds(context);
                int maxDoc = ords.maxDoc();
                float score = score();
                return new ScorerSupplier() {
                    @Override
                    public Scorer get(long leadCost) {
                        boolean smallSet = (long) allowed.cardinality() * 32 < maxDoc;
                        if (!smallSet && leadCost < maxDoc / 8) {
                            return new ConstantScoreScorer(score, scoreMode, checkEach(ords.docToOrd));
                        }
                        FixedBitSet bits = ords.allowedDocs(allowed);
                        return new ConstantScoreScorer(
                                score, scoreMode, new BitSetIterator(bits, Math.min(maxDoc, allowed.cardinality())));
                    }

                    @Override
                    public long cost() {
                        return Math.min(maxDoc, allowed.cardinality());
                    }
                };
            }

            @Override
            public boolean isCacheable(LeafReaderContext ctx) {
                return false;
            }
        };
    }

    private TwoPhaseIterator checkEach(int[] docToOrd) {
        DocIdSetIterator all = DocIdSetIterator.all(docToOrd.length);
        return new TwoPhaseIterator(all) {
            @Override
            public boolean matches() {
                return allowed.contains(docToOrd[all.docID()]);
            }

            @Override
            public float matchCost() {
                return 2; // an array read and a bit test
            }
        };
    }

    @Override
    public void visit(QueryVisitor visitor) {
        if (visitor.acceptField(LuceneToolIndex.ORD)) {
            visitor.visitLeaf(this);
        }
    }

    @Override
    public String toString(String defaultField) {
        // no counts or members: query strings can end up in logs
        return "AllowedOrds";
    }

    @Override
    public boolean equals(Object other) {
        return sameClassAs(other) && allowed == ((AllowedOrdsQuery) other).allowed;
    }

    @Override
    public int hashCode() {
        return 31 * classHash() + System.identityHashCode(allowed);
    }
}
