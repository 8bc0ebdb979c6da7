package dev.toolscout.verbs;

import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.indexing.ToolText;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Fusion;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Ranked;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * Finds verbs and tools for a description, and decides whether an unknown verb can be replaced by one (seed 002's
 * {@code NovelVerbHandler}). Both search the catalog the way {@code tool_discovery__find} does, inside what the
 * principal may see (verbs and tools alike), with the same hybrid ranking, the text ranked whole (a verb is one
 * intent, so no clause search).
 *
 * <p>Each candidate's confidence ({@link VerbCandidate#confidence()}, {@link VerbMatch}) compares what the two do:
 * the cosine of the novel verb's description and the candidate's, each embedded alone as a document, combined with
 * the overlap of their input names when the novel verb names inputs. A copy of a verb under another name scores 1
 * whatever the model. (Neither the stored embedding, whose text also holds the name, the examples and the
 * parameters, nor the query vector that ranks the candidates is used for it: the first put a renamed copy at 0.75
 * with the default model, and a query adapter or instruction makes even an identical text score far below 1.) The
 * fused score that orders candidates is never the confidence: it is relative to the other candidates, so text of
 * no meaning gets a high one too.
 *
 * <p>{@link #resolve} substitutes the most confident of the {@value #CONSIDERED} best-ranked candidates when its
 * confidence reaches the embedding model's calibrated threshold ({@link VerbThresholds}); otherwise it answers
 * {@link Resolution.NoMatch} with the nearest candidates. A model without a calibrated threshold never substitutes.
 *
 * <p>Thread-safe: each call reads one catalog snapshot and one access decision; its only state is a bounded cache of
 * description vectors ({@value #CACHED}, least recently used dropped), keyed by text, so a changed description is
 * embedded anew.
 */
public final class VerbResolver {
    /** How many candidates {@link #discover} returns unless told. */
    public static final int DEFAULT_LIMIT = 10;

    /** The most candidates {@link #discover} returns. */
    public static final int MAX_LIMIT = 50;

    /** How many candidates a resolution lists besides its target (or as the nearest, when there is no match). */
    public static final int NEAREST = 5;

    /** How many of the best-ranked candidates a resolution compares by confidence. */
    public static final int CONSIDERED = 10;

    /** How many document vectors of descriptions the resolver keeps (about 1.5 MB at 384 dimensions). */
    static final int CACHED = 1024;

    /** Most confident first; equal confidences (and NaN, last) keep the ranking's order. */
    private static final Comparator<VerbCandidate> MOST_CONFIDENT = Comparator.comparingDouble(
            (VerbCandidate c) -> Double.isNaN(c.confidence()) ? Double.POSITIVE_INFINITY : -c.confidence());

    private final Catalog catalog;
    private final HybridRanker ranker;
    private final EmbeddingModel model;
    private final AccessControl access;
    private final Fusion fusion;
    private final double threshold;

    /**
     * Document vectors of recent texts (candidates' descriptions recur from call to call), least recently used
     * dropped past {@value #CACHED}; guarded by itself.
     */
    private final Map<String, float[]> vectors = new LinkedHashMap<>(256, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
            return size() > CACHED;
        }
    };

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
            Catalog catalog,
            HybridRanker ranker,
            EmbeddingModel model,
            AccessControl access,
            Fusion fusion,
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
        List<Ranked> ranked = ranker.rank(
                verb.searchText(),
                model::embedQueries,
                allowed,
                fusion.withDepth(Math.max(fusion.depth(), limit)),
                o -> snap.byOrd(o).name());
        List<Ranked> top = ranked.subList(0, Math.min(limit, ranked.size()));
        List<ToolSpec> specs = top.stream().map(r -> snap.byOrd(r.ord()).spec()).toList();
        double[] confidence = confidences(verb, specs);
        List<VerbCandidate> out = new ArrayList<>(top.size());
        for (int i = 0; i < top.size(); i++) {
            Ranked r = top.get(i);
            ToolSpec s = specs.get(i);
            out.add(new VerbCandidate(
                    s.fullName(),
                    s.sourceKind(),
                    s.description(),
                    confidence[i],
                    r.score(),
                    r.lexicalRank(),
                    r.denseRank()));
        }
        return out;
    }

    /**
     * Each candidate's confidence ({@link VerbMatch}): its description and the novel verb's text embedded together
     * as documents (one batch), their cosine, combined with the overlap of the input names.
     */
    private double[] confidences(NovelVerb verb, List<ToolSpec> candidates) {
        double[] out = new double[candidates.size()];
        if (candidates.isEmpty()) {
            return out;
        }
        List<String> texts = new ArrayList<>(candidates.size() + 1);
        texts.add(VerbMatch.text(verb));
        for (ToolSpec s : candidates) {
            texts.add(s.description().isBlank() ? ToolText.splitIdentifier(s.fullName()) : s.description());
        }
        List<float[]> vectors = documentVectors(texts);
        for (int i = 0; i < out.length; i++) {
            double cos = dev.toolscout.embedding.Vectors.cosine(vectors.get(0), vectors.get(i + 1));
            out[i] = VerbMatch.confidence(
                    cos, VerbMatch.inputOverlap(verb.inputs(), candidates.get(i).parameterNames()));
        }
        return out;
    }

    /** The texts' document vectors, from the cache where it has them, the rest embedded in one batch. */
    private List<float[]> documentVectors(List<String> texts) {
        float[][] out = new float[texts.size()][];
        List<String> missing = new ArrayList<>();
        synchronized (vectors) {
            for (int i = 0; i < out.length; i++) {
                out[i] = vectors.get(texts.get(i));
                if (out[i] == null && !missing.contains(texts.get(i))) {
                    missing.add(texts.get(i));
                }
            }
        }
        if (!missing.isEmpty()) {
            List<float[]> embedded = model.embedDocuments(missing);
            synchronized (vectors) {
                for (int i = 0; i < missing.size(); i++) {
                    vectors.put(missing.get(i), embedded.get(i));
                }
            }
            for (int i = 0; i < out.length; i++) {
                if (out[i] == null) {
                    out[i] = embedded.get(missing.indexOf(texts.get(i)));
                }
            }
        }
        return List.of(out);
    }

    /** {@link #resolve(Principal, NovelVerb, Set)} excluding nothing. */
    public Resolution resolve(Principal principal, NovelVerb verb) {
        return resolve(principal, verb, Set.of());
    }

    /**
     * Decides whether an existing verb or tool can stand in for a novel verb: of the {@value #CONSIDERED}
     * best-ranked candidates the principal may see (leaving out {@code excluding}), the most confident when its
     * confidence reaches the threshold, else no match. Alternatives and the nearest are listed most confident first.
     */
    public Resolution resolve(Principal principal, NovelVerb verb, Set<String> excluding) {
        List<VerbCandidate> found = new ArrayList<>(discover(principal, verb, CONSIDERED, excluding));
        found.sort(MOST_CONFIDENT);
        String id = model.modelId();
        if (found.isEmpty()) {
            return new Resolution.NoMatch(List.of(), threshold, id, "no verb or tool is visible to search");
        }
        VerbCandidate best = found.get(0);
        if (Double.isNaN(threshold)) {
            return new Resolution.NoMatch(
                    found.subList(0, Math.min(NEAREST, found.size())),
                    threshold,
                    id,
                    "embedding model '" + id + "' has no calibrated verb threshold, so nothing is substituted");
        }
        if (best.confidence() >= threshold) {
            return new Resolution.Substitution(
                    best, threshold, id, found.subList(1, Math.min(NEAREST + 1, found.size())));
        }
        String conf = Double.isNaN(best.confidence())
                ? "no similarity (not among the nearest by meaning)"
                : String.format(Locale.ROOT, "confidence %.3f", best.confidence());
        return new Resolution.NoMatch(
                found.subList(0, Math.min(NEAREST, found.size())),
                threshold,
                id,
                String.format(
                        Locale.ROOT,
                        "the best candidate, %s, has %s, below the threshold %.3f of model '%s'",
                        best.name(),
                        conf,
                        threshold,
                        id));
    }

    /**
     * What the principal may see, less the tools a skill offers only through itself (as {@code
     * tool_discovery__find} leaves them out) and {@code excluding}.
     */
    private AllowedSet allowed(Catalog.Snapshot snap, Principal principal, Set<String> excluding) {
        BitSet out = snap.skillKindOrds();
        for (String name : excluding) {
            CatalogEntry e = snap.get(name);
            if (e != null) {
                out.set(e.ord());
            }
        }
        return access.allowed(snap, principal).without(out);
    }
}
