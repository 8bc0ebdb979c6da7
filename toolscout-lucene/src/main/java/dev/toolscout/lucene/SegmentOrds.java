package dev.toolscout.lucene;

import dev.toolscout.access.AllowedSet;
import java.io.IOException;
import java.util.Arrays;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.util.FixedBitSet;

/**
 * The ordinals of one segment's documents, read once from the {@code ord} doc values when a searcher first
 * sees the segment (a segment's doc values never change, so every searcher holding the segment shares
 * them). Filtering and collecting then cost an array read per document instead of a doc-values decode,
 * and a small allowed set is turned into documents through the ordinal-sorted view without visiting the
 * others. Deleted documents keep their entries; Lucene applies live docs on top.
 *
 * <p>Memory: 12 bytes per document.
 */
final class SegmentOrds {
    /** The ordinal by document id; -1 where a document has none. */
    final int[] docToOrd;

    /** The highest ordinal in the segment, or -1. */
    final int maxOrd;

    /** Ordinals in ascending order, and the document of each (ties by document id). */
    private final int[] sortedOrds;

    private final int[] docsBySortedOrd;

    private SegmentOrds(int[] docToOrd, int maxOrd, int[] sortedOrds, int[] docsBySortedOrd) {
        this.docToOrd = docToOrd;
        this.maxOrd = maxOrd;
        this.sortedOrds = sortedOrds;
        this.docsBySortedOrd = docsBySortedOrd;
    }

    static SegmentOrds load(LeafReader reader, String field) throws IOException {
        int maxDoc = reader.maxDoc();
        int[] docToOrd = new int[maxDoc];
        Arrays.fill(docToOrd, -1);
        long[] pairs = new long[maxDoc];
        int count = 0;
        int maxOrd = -1;
        NumericDocValues values = DocValues.getNumeric(reader, field);
        for (int doc = values.nextDoc(); doc != DocIdSetIterator.NO_MORE_DOCS; doc = values.nextDoc()) {
            int ord = (int) values.longValue();
            docToOrd[doc] = ord;
            maxOrd = Math.max(maxOrd, ord);
            pairs[count++] = ((long) ord << 32) | doc; // ordinals and doc ids are >= 0: sorts by ord, doc
        }
        Arrays.sort(pairs, 0, count);
        int[] sortedOrds = new int[count];
        int[] docs = new int[count];
        for (int i = 0; i < count; i++) {
            sortedOrds[i] = (int) (pairs[i] >>> 32);
            docs[i] = (int) pairs[i];
        }
        return new SegmentOrds(docToOrd, maxOrd, sortedOrds, docs);
    }

    int maxDoc() {
        return docToOrd.length;
    }

    /**
     * The documents whose ordinal is allowed. Visits only the allowed ordinals (a binary search each) when
     * the set is small next to the segment, and every document otherwise.
     */
    FixedBitSet allowedDocs(AllowedSet allowed) {
        FixedBitSet bits = new FixedBitSet(maxDoc());
        int n = sortedOrds.length;
        if ((long) allowed.cardinality() * 32 < n) {
            int from = 0;
            for (int ord = allowed.nextAllowed(0); ord >= 0 && ord <= maxOrd && from < n; ) {
                int i = Arrays.binarySearch(sortedOrds, from, n, ord);
                if (i < 0) {
                    from = -i - 1;
                } else {
                    while (i > from && sortedOrds[i - 1] == ord) {
                        i--; // binarySearch may land on any of several documents with this ordinal
                    }
                    for (from = i; from < n && sortedOrds[from] == ord; from++) {
                        bits.set(docsBySortedOrd[from]);
                    }
                }
                ord = ord == Integer.MAX_VALUE ? -1 : allowed.nextAllowed(ord + 1);
            }
            return bits;
        }
        // one 64-document word at a time: a tight loop the JIT keeps in registers
        long[] words = bits.getBits();
        int[] ords = docToOrd;
        int maxDoc = ords.length;
        for (int base = 0; base < maxDoc; base += 64) {
            long word = 0;
            int end = Math.min(base + 64, maxDoc);
            for (int doc = base; doc < end; doc++) {
                if (allowed.contains(ords[doc])) {
                    word |= 1L << doc; // shifts use the low 6 bits: doc - base
                }
            }
            words[base >> 6] = word;
        }
        return bits;
    }
}
