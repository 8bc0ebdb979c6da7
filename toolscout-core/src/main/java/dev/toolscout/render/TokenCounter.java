package dev.toolscout.render;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import dev.toolscout.selection.TokenCost;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Counts the tokens of tool definitions as a model receives them (the Anthropic {@code tools} JSON of each
 * tool), with jtokkit's {@code cl100k_base} encoding (offline; the encodings ship in the jar). Counts are
 * cached by content hash, so summing over a large catalog is cheap after the first time; the cache holds at
 * most {@link #DEFAULT_CACHE_SIZE} definitions (least recently used go first), so a long-running server whose
 * catalog keeps changing does not grow without bound. Counts counted by an earlier process (the state store's, see
 * {@link StoredTokenCounts}) can be {@linkplain #remember remembered} instead of counted again. Thread-safe.
 */
public final class TokenCounter implements TokenCost {
    /**
     * Cached definition counts by default: room for the largest catalog measured (10k tools, docs/BENCHMARKS.md)
     * several times over, about 10 MB at most (a 64-character hash and a boxed count an entry).
     */
    public static final int DEFAULT_CACHE_SIZE = 65_536;

    /**
     * How a definition is rendered before it is counted ({@link #definitionText}). Change it whenever that rendering
     * changes: counts stored under the old name are then ignored and counted again.
     */
    public static final String RENDERING = "anthropic-definition-v1";

    /** The {@link #identity} of the default counter. */
    public static final String DEFAULT_IDENTITY = "cl100k_base/" + RENDERING;

    /** Loading an encoding costs ~100 ms; the lazy registry loads only the ones asked for, once per JVM. */
    private static final com.knuddels.jtokkit.api.EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

    private final EncodingType type;
    private volatile Encoding encoding;
    private final int cacheSize;
    /**
     * A small LRU under its own lock rather than Caffeine: core keeps to light dependencies (STYLE.md), and a
     * count is computed outside the lock, so the lock is held only for a map lookup or insert.
     */
    private final Map<String, Integer> byHash;

    private final java.util.concurrent.atomic.AtomicLong counted = new java.util.concurrent.atomic.AtomicLong();

    public TokenCounter() {
        this(EncodingType.CL100K_BASE, DEFAULT_CACHE_SIZE);
    }

    public TokenCounter(EncodingType type) {
        this(type, DEFAULT_CACHE_SIZE);
    }

    /** @param cacheSize the most definition counts kept, at least 1 */
    public TokenCounter(EncodingType type, int cacheSize) {
        if (cacheSize < 1) {
            throw new IllegalArgumentException("token count cache size must be at least 1, got: " + cacheSize);
        }
        this.type = type;
        this.cacheSize = cacheSize;
        this.byHash = new LinkedHashMap<>(256, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Integer> eldest) {
                return size() > TokenCounter.this.cacheSize;
            }
        };
    }

    /**
     * What a count depends on besides the definition's content: the encoding and the rendering, e.g. {@value
     * #DEFAULT_IDENTITY}. Counts are stored under it, and only counts stored under it are used.
     */
    public String identity() {
        return type.getName() + "/" + RENDERING;
    }

    /** How many definitions this counter has rendered and counted (not found in its cache) since it was made. */
    public long countedDefinitions() {
        return counted.get();
    }

    /**
     * Takes counts of definitions counted before under this {@link #identity} (by content hash) into the cache, so
     * they are not counted again. A negative count is not a count: it is skipped, and that definition is counted
     * when it is asked for.
     *
     * @return the content hashes taken
     */
    public java.util.Set<String> remember(Map<String, Integer> countsByHash) {
        java.util.Set<String> taken = new java.util.HashSet<>();
        synchronized (byHash) {
            countsByHash.forEach((hash, n) -> {
                if (hash != null && n != null && n >= 0) {
                    byHash.put(hash, n);
                    taken.add(hash);
                }
            });
        }
        return taken;
    }

    /** The cached count of the definition with this content hash, or {@code null}; counts nothing. */
    public Integer cachedTokens(String contentHash) {
        synchronized (byHash) {
            return byHash.get(contentHash);
        }
    }

    /** How many definition counts are cached now (never more than the cache size). */
    public int cachedCount() {
        synchronized (byHash) {
            return byHash.size();
        }
    }

    /** Loaded on first use: commands that count nothing never pay for it. */
    private Encoding encoding() {
        Encoding e = encoding;
        if (e == null) {
            e = REGISTRY.getEncoding(type);
            encoding = e;
        }
        return e;
    }

    /** Tokens of plain text. */
    public int count(String text) {
        return encoding().countTokensOrdinary(text);
    }

    /** Tokens of one tool's definition. */
    @Override
    public int definitionTokens(ToolSpec spec) {
        return cached(spec.contentHash(), spec);
    }

    /** Same, using the entry's known hash (no re-hashing). */
    public int definitionTokens(CatalogEntry e) {
        return cached(e.contentHash(), e.spec());
    }

    /** Same, for a spec whose {@link ToolSpec#contentHash} the caller already knows (no re-hashing). */
    public int definitionTokens(String contentHash, ToolSpec spec) {
        return cached(java.util.Objects.requireNonNull(contentHash, "contentHash"), spec);
    }

    /**
     * Counts the tokens of {@code spec}'s definition now, neither looking in the cache nor adding to it: for a caller
     * that keeps its counts itself ({@link StoredTokenCounts}, which holds a whole catalog's).
     */
    public int countDefinition(ToolSpec spec) {
        int n = count(definitionText(spec));
        counted.incrementAndGet();
        return n;
    }

    private int cached(String hash, ToolSpec spec) {
        synchronized (byHash) {
            Integer n = byHash.get(hash);
            if (n != null) {
                return n;
            }
        }
        // counted outside the lock: two threads may count the same definition once each, which is harmless
        int n = count(definitionText(spec));
        counted.incrementAndGet();
        synchronized (byHash) {
            byHash.put(hash, n);
        }
        return n;
    }

    public int definitionTokens(Collection<ToolSpec> specs) {
        int sum = 0;
        for (ToolSpec s : specs) {
            sum += definitionTokens(s);
        }
        return sum;
    }

    /** The tokens of every definition the allowed set holds. */
    public long allowedTokens(Catalog.Snapshot snapshot, AllowedSet allowed) {
        long sum = 0;
        for (int ord = allowed.nextAllowed(0); ord >= 0; ord = allowed.nextAllowed(ord + 1)) {
            CatalogEntry e = snapshot.byOrd(ord);
            if (e != null) {
                sum += definitionTokens(e);
            }
        }
        return sum;
    }

    private static String definitionText(ToolSpec spec) {
        return ToolSpecJson.canonical(ToolRenderer.anthropic(spec));
    }
}
