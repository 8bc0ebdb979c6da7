package dev.toolscout.verbs;

import dev.toolscout.access.AccessControl;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.index.AllowedSet;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Ranked;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Finds verbs and tools for a description, and decides whether an unknown verb can be replaced by one (seed 002's
 * {@code NovelVerbHandler}). Both search the catalog the way {@code tool_discovery__find} does, inside what the
 * principal may see (verbs and tools alike), with the same hybrid ranking, the text ranked whole (a verb is one
 * intent, so no clause search).
 *
 * <p>{@link #resolve} substitutes the best-ranked candidate when its confidence, the cosine similarity of its
 * embedding to the novel verb's ({@link VerbCandidate#confidence()}), reaches the embedding model's calibrated
 * threshold ({@link VerbThresholds}); otherwise it answers {@link Resolution.NoMatch} with the nearest candidates.
 * A model without a calibrated threshold never substitutes. The fused score that orders candidates is never the
 * confidence: it is relative to the other candidates, so text of no meaning gets a high one too.
 *
 * <p>Thread-safe: it holds no state of its own; each call reads one catalog snapshot and one access decision.
 */
public final class VerbResolver {
  /** How many candidates {@link #discover} returns unless told. */
  public static final int DEFAULT_LIMIT = 10;

  /** The most candidates {@link #discover} returns. */
  public static final int MAX_LIMIT = 50;

  /** How many candidates a resolution lists besides its target (or as the nearest, when there is no match). */
  public static final int NEAREST = 5;

  private final Catalog catalog;
  private final HybridRanker ranker;
  private final EmbeddingModel model;
  private final AccessControl access;
  private final Fusion fusion;
  private final double threshold;

  /**
   * A resolver with the calibrated threshold of {@code model} ({@link VerbThresholds#forModel}; none for an
   * uncalibrated model, which then never substitutes).
   *
   * @param ranker shared with the selector; closed by whoever made it (the engine)
   * @param fusion the product's fusion ({@code SelectorConfig.fusion()}); the clause search is left out
   */
  public VerbResolver(
      Catalog catalog, HybridRanker ranker, EmbeddingModel model, AccessControl access, Fusion fusion) {
    this(catalog, ranker, model, access, fusion, VerbThresholds.forModel(model.modelId()));
  }

  /**
   * A resolver with an explicit threshold (the calibration measures candidates with an empty one).
   *
   * @param threshold the confidence a substitution needs, or empty to never substitute
   */
  public VerbResolver(
      Catalog catalog, HybridRanker ranker, EmbeddingModel model, AccessControl access, Fusion fusion,
      OptionalDouble threshold) {
    this.catalog = Objects.requireNonNull(catalog, "catalog");
    this.ranker = Objects.requireNonNull(ranker, "ranker");
    this.model = Objects.requireNonNull(model, "model");
    this.access = Objects.requireNonNull(access, "access");
    this.fusion = Objects.requireNonNull(fusion, "fusion").withClausePenalty(Double.POSITIVE_INFINITY);
    this.threshold = threshold.orElse(Double.NaN);
  }

  /** The confidence a substitution needs, or empty when this resolver never substitutes. */
  public OptionalDouble threshold() {
    return Double.isNaN(threshold) ? OptionalDouble.empty() : OptionalDouble.of(threshold);
  }

  /** The embedding model whose cosines the confidences are. */
  public String modelId() {
    return model.modelId();
  }

  /**
   * The verbs and tools that best match a description, best first (by fused score), each with its confidence.
   *
   * @param limit 1-{@value #MAX_LIMIT}
   * @throws InvalidVerbException when the description is blank or too long
   * @throws IllegalArgumentException when {@code limit} is out of range
   */
  public List<VerbCandidate> discover(Principal principal, String description, int limit) {
    return discover(principal, NovelVerb.described(description), limit, Set.of());
  }

  /**
   * The verbs and tools that best match a novel verb, best first, leaving out {@code excluding} (tool names, such
   * as substitutions already tried; unknown names are ignored).
   *
   * @param limit 1-{@value #MAX_LIMIT}
   * @throws IllegalArgumentException when {@code limit} is out of range
   */
  public List<VerbCandidate> discover(Principal principal, NovelVerb verb, int limit, Set<String> excluding) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new IllegalArgumentException("limit must be between 1 and " + MAX_LIMIT + ", got: " + limit);
    }
    Objects.requireNonNull(verb, "verb");
    Catalog.Snapshot snap = catalog.snapshot();
    AllowedSet allowed = allowed(snap, principal, excluding);
    String text = verb.searchText();
    List<Ranked> ranked = ranker.rank(text, () -> model.embedQuery(text), model::embedQuery, allowed,
        fusion.withDepth(Math.max(fusion.depth(), limit)), o -> snap.byOrd(o).name());
    List<VerbCandidate> out = new ArrayList<>(Math.min(limit, ranked.size()));
    for (Ranked r : ranked.subList(0, Math.min(limit, ranked.size()))) {
      ToolSpec s = snap.byOrd(r.ord()).spec();
      out.add(new VerbCandidate(s.fullName(), s.sourceKind(), s.description(), r.similarity(), r.score(),
          r.lexicalRank(), r.denseRank()));
    }
    return out;
  }

  /** {@link #resolve(Principal, NovelVerb, Set)} excluding nothing. */
  public Resolution resolve(Principal principal, NovelVerb verb) {
    return resolve(principal, verb, Set.of());
  }

  /**
   * Decides whether an existing verb or tool can stand in for a novel verb: the best-ranked candidate the
   * principal may see (leaving out {@code excluding}) when its confidence reaches the threshold, else no match.
   */
  public Resolution resolve(Principal principal, NovelVerb verb, Set<String> excluding) {
    List<VerbCandidate> found = discover(principal, verb, NEAREST + 1, excluding);
    String id = model.modelId();
    if (found.isEmpty()) {
      return new Resolution.NoMatch(List.of(), threshold, id, "no verb or tool is visible to search");
    }
    VerbCandidate best = found.get(0);
    if (Double.isNaN(threshold)) {
      return new Resolution.NoMatch(found.subList(0, Math.min(NEAREST, found.size())), threshold, id,
          "embedding model '" + id + "' has no calibrated verb threshold, so nothing is substituted");
    }
    if (best.confidence() >= threshold) {
      return new Resolution.Substitution(best, threshold, id, found.subList(1, found.size()));
    }
    String conf = Double.isNaN(best.confidence()) ? "no similarity (not among the nearest by meaning)"
        : String.format(Locale.ROOT, "confidence %.3f", best.confidence());
    return new Resolution.NoMatch(found.subList(0, Math.min(NEAREST, found.size())), threshold, id,
        String.format(Locale.ROOT, "the best candidate, %s, has %s, below the threshold %.3f of model '%s'",
            best.name(), conf, threshold, id));
  }

  private AllowedSet allowed(Catalog.Snapshot snap, Principal principal, Set<String> excluding) {
    AllowedSet allowed = access.allowed(snap, principal);
    if (excluding.isEmpty()) {
      return allowed;
    }
    BitSet bits = new BitSet(allowed.universe());
    for (int ord = allowed.nextAllowed(0); ord >= 0; ord = allowed.nextAllowed(ord + 1)) {
      bits.set(ord);
    }
    for (String name : excluding) {
      CatalogEntry e = snap.get(name);
      if (e != null) {
        bits.clear(e.ord());
      }
    }
    return AllowedSet.of(bits, allowed.universe());
  }
}
