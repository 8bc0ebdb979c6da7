package dev.toolscout.indexing;

import java.time.Duration;

/**
 * When the {@link ToolIndexer} makes what it wrote to the search index searchable (a near-real-time refresh, cheap)
 * and durable (a commit: a flush and an fsync of the index's files). The index is a cache of the store, so a commit
 * only bounds what a start after a crash re-indexes (from stored vectors, nothing re-embedded); what a writer is told
 * is durable is durable in the store, whatever this says (docs/INDEXING.md, "Commits").
 *
 * <p>A change of at most {@value ToolIndexer#SMALL} tools (a registration, one tool's update) is searchable as soon as
 * it is written, and so is anything written when the queue runs empty; during a run of queued large changes (a bulk
 * load, an MCP server's 10,000 tools) what is written is made searchable every {@code refreshEvery}, so the index
 * flushes one segment per interval rather than one per batch (each segment's HNSW graph is merged again later, the
 * larger part of a bulk load's cost). Commits come every {@code commitDocs} documents or
 * {@code commitEvery} while busy, when the queue is empty and it has been empty for {@code commitIdle} or the last
 * commit is that old (so a writer whose small changes never pause still commits about once per {@code commitIdle}, and a
 * read-only opening beside it finds a recent commit), and on close.
 *
 * @param refreshEvery during a run of large changes, how often the documents written so far become searchable
 *     (default 5 s)
 * @param commitDocs commit once this many documents were written since the last commit (default 100,000)
 * @param commitEvery commit at least this often while there are uncommitted writes (default 60 s)
 * @param commitIdle commit once the queue has been empty this long, or at an empty queue once the last commit is
 *     this old (default 0: as soon as the queue runs empty, as a writer of small changes needs for a read-only
 *     opening beside it to find its index committed at the catalog's version: docs/INDEXING.md)
 */
public record CommitPolicy(Duration refreshEvery, int commitDocs, Duration commitEvery, Duration commitIdle) {
    /** The defaults above. */
    public static final CommitPolicy DEFAULTS =
            new CommitPolicy(Duration.ofSeconds(5), 100_000, Duration.ofSeconds(60), Duration.ZERO);

    public CommitPolicy {
        requirePositive("refreshEvery", refreshEvery);
        requirePositive("commitEvery", commitEvery);
        if (commitIdle == null || commitIdle.isNegative()) {
            throw new IllegalArgumentException("commitIdle must be a duration >= 0, got: " + commitIdle);
        }
        if (commitDocs < 1) {
            throw new IllegalArgumentException("commitDocs must be >= 1, got: " + commitDocs);
        }
    }

    private static void requirePositive(String name, Duration d) {
        if (d == null || d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be a positive duration, got: " + d);
        }
    }
}
