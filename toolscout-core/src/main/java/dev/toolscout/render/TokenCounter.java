package dev.toolscout.render;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.index.AllowedSet;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.model.ToolSpecJson;
import java.util.Collection;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts the tokens of tool definitions as a model receives them (the Anthropic {@code tools} JSON of each
 * tool), with jtokkit's {@code cl100k_base} encoding (offline; the encodings ship in the jar). Counts are
 * cached by content hash, so summing over a large catalog is cheap after the first time. Thread-safe.
 */
public final class TokenCounter {
  /** Loading an encoding costs ~100 ms; the lazy registry loads only the ones asked for, once per JVM. */
  private static final com.knuddels.jtokkit.api.EncodingRegistry REGISTRY = Encodings.newLazyEncodingRegistry();

  private final EncodingType type;
  private volatile Encoding encoding;
  private final ConcurrentHashMap<String, Integer> byHash = new ConcurrentHashMap<>();

  public TokenCounter() {
    this(EncodingType.CL100K_BASE);
  }

  public TokenCounter(EncodingType type) {
    this.type = type;
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
  public int definitionTokens(ToolSpec spec) {
    return byHash.computeIfAbsent(spec.contentHash(), h -> count(definitionText(spec)));
  }

  /** Same, using the entry's known hash (no re-hashing). */
  public int definitionTokens(CatalogEntry e) {
    return byHash.computeIfAbsent(e.contentHash(), h -> count(definitionText(e.spec())));
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
