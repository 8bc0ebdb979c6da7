package dev.toolscout.render;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.index.AllowedSet;
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
 * catalog keeps changing does not grow without bound. Thread-safe.
 */
public final class TokenCounter implements TokenCost {
  /**
   * Cached definition counts by default: room for the largest catalog measured (10k tools, docs/BENCHMARKS.md)
   * several times over, about 10 MB at most (a 64-character hash and a boxed count an entry).
   */
  public static final int DEFAULT_CACHE_SIZE = 65_536;

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

  private int cached(String hash, ToolSpec spec) {
    synchronized (byHash) {
      Integer n = byHash.get(hash);
      if (n != null) {
        return n;
      }
    }
    // counted outside the lock: two threads may count the same definition once each, which is harmless
    int n = count(definitionText(spec));
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
