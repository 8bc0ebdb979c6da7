package dev.toolscout.indexing;

import dev.toolscout.access.AllowedSet;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * A search index over the catalog: lexical (BM25 over the fields of a {@link ToolDocument}) and dense
 * (nearest vectors). A cache: it can always be rebuilt from the state store. Fusion of the two lists
 * happens in {@code selection}, so every index implementation ranks the same way.
 *
 * <p>Contract: results hold only ordinals in {@code allowed} (never a score or a count of anything
 * outside it), at most {@code limit} of them, best first; equal scores in ascending ordinal order. Writes
 * are visible to searches after {@link #refresh()} or {@link #commit(long)}, and durable only after a commit: the
 * index is a cache, so the tool indexer commits now and then (docs/INDEXING.md, "Commits") and a start catches up
 * from the store past the committed version. Implementations are safe for concurrent searches and one writer.
 */
public interface ToolIndex extends AutoCloseable {
    /** Adds or replaces documents (matched by name). */
    void upsert(Collection<ToolDocument> docs);

    /** Removes documents by tool name; unknown names are ignored. */
    void remove(Collection<String> toolNames);

    /** Removes every document. */
    void clear();

    /** Makes the writes durable and visible, recording the catalog version they reflect. */
    void commit(long catalogVersion);

    /**
     * Makes the writes so far visible to searches without making them durable (a near-real-time reopen, far cheaper
     * than a commit): a crash before the next {@link #commit} loses them, and {@link #committedVersion} still names
     * what is durable.
     */
    void refresh();

    /** The catalog version of the last commit, or -1 for an empty or new index. */
    long committedVersion();

    /**
     * Reorganizes the committed index for faster searches when it would gain (an index written in batches is
     * searched part by part), keeping its documents and committed version; returns whether it did. May take
     * seconds: the tool indexer calls it from its own thread, once it has been idle a while. Nothing by default.
     */
    default boolean compact() {
        return false;
    }

    /** The number of documents visible to searches. */
    int size();

    /**
     * The ordinal of every document, by tool name. A persisted index that is still current is used as it is
     * on restart; the catalog then keeps these ordinals so the two agree.
     */
    Map<String, Integer> ordinals();

    /** BM25 over the document fields, inside {@code allowed}. */
    List<Hit> lexical(String query, AllowedSet allowed, int limit);

    /** Nearest vectors by cosine (dot product of unit vectors), inside {@code allowed}. */
    List<Hit> dense(float[] queryVector, AllowedSet allowed, int limit);

    @Override
    void close();
}
