package dev.toolscout.selection;

import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.learning.UsageMemory;
import dev.toolscout.model.InputLimits;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.selection.Selection.SelectedTool;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Chooses the K tools (default 10) a request should carry: the access policy first computes what the
 * principal may see, hybrid search ranks inside that set, the pinned core tools take up to {@code
 * coreShare} of the slots (the discovery tool first whenever tools are left out), and ranked tools fill the
 * rest. Deterministic: the same catalog and request give the same selection in the same order (ties by
 * name). Thread-safe.
 *
 * <p>A skill's own tools (of kind skill) are disclosed through the skill, as the design has it: a selection
 * carries them only when the request pins them (the conversation activated a skill that brings them), and never
 * ranks them on their own. Tools of other kinds that a skill brings are ranked as any other.
 *
 * <p>Engine tools (the discovery meta-tools) are tools the engine serves itself, whatever the catalog holds: when
 * one is named among the core tools, the catalog lacks it and the policy lets the principal see it, it is offered
 * like a catalog core tool whenever tools are left out, so the escape hatch never depends on the catalog.
 */
public final class Selector {
    /**
     * The longest part of a message embedded and searched; the rest of a longer one is not used (small
     * embedders read 512 tokens), and the result says so ({@link Shortened}). A message longer than {@link
     * InputLimits#MAX_REQUEST_MESSAGE_CHARS} is refused.
     */
    public static final int MAX_MESSAGE_CHARS = 8_192;

    private static final String DISCOVERY_SOURCE = "tool_discovery";

    private final Catalog catalog;
    private final EmbeddingModel model;
    private final AccessControl access;
    private final HybridRanker ranker;
    private final TokenCost tokens;
    private final SelectorConfig config;
    private final java.util.Set<String> coreSet;
    private final Map<String, ToolSpec> engineTools;
    private final UsageMemory learned;

    /** A selector with no engine tools: only the catalog's tools are offered. */
    public Selector(
            Catalog catalog,
            HybridRanker ranker,
            EmbeddingModel model,
            AccessControl access,
            TokenCost tokens,
            SelectorConfig config) {
        this(catalog, ranker, model, access, tokens, config, List.of());
    }

    /**
     * @param ranker shared with the discovery tools and closed by whoever made it (the engine)
     * @param engineTools tools the engine serves itself (the discovery meta-tools), offered when a core tool of
     *     that name is missing from the catalog
     */
    public Selector(
            Catalog catalog,
            HybridRanker ranker,
            EmbeddingModel model,
            AccessControl access,
            TokenCost tokens,
            SelectorConfig config,
            List<ToolSpec> engineTools) {
        this(catalog, ranker, model, access, tokens, config, engineTools, null);
    }

    /**
     * @param learned what was learned from use, blended into the ranking ({@link #LEARNED_WEIGHT}); null for none
     */
    public Selector(
            Catalog catalog,
            HybridRanker ranker,
            EmbeddingModel model,
            AccessControl access,
            TokenCost tokens,
            SelectorConfig config,
            List<ToolSpec> engineTools,
            UsageMemory learned) {
        this.learned = learned;
        this.catalog = catalog;
        this.model = model;
        this.access = access;
        this.ranker = Objects.requireNonNull(ranker, "ranker");
        this.tokens = tokens;
        this.config = config;
        this.coreSet = config.coreSet();
        Map<String, ToolSpec> own = new LinkedHashMap<>();
        engineTools.forEach(t -> own.put(t.fullName(), t));
        this.engineTools = java.util.Collections.unmodifiableMap(own);
    }

    public SelectorConfig config() {
        return config;
    }

    /**
     * A selection request.
     *
     * @param k how many tools, 1-50; {@code null} for the configured default (10)
     * @param tokenBudget the most tokens the selected definitions may take, or {@code null} for no limit
     * @param skillTools the tools of the conversation's active skills, by name, each with the skill that brought it
     *     (in activation order): pinned before the core tools, within K and the token budget, and ranked by the
     *     message when they do not all fit; names the catalog lacks or the principal may not see are skipped
     * @param offered tools the engine serves itself for this request ({@code skills__activate}, its enum naming the
     *     principal's skills), offered right after the discovery tool when the principal may see them and the
     *     catalog holds no tool of that name
     */
    public record Request(
            String message,
            Principal principal,
            Integer k,
            Integer tokenBudget,
            Map<String, String> skillTools,
            List<ToolSpec> offered) {
        public Request {
            Objects.requireNonNull(principal, "principal");
            InputLimits.checkRequestMessage(message);
            if (k != null) {
                SelectorConfig.checkK(k);
            }
            if (tokenBudget != null && tokenBudget < 1) {
                throw new IllegalArgumentException("token budget must be at least 1, got: " + tokenBudget);
            }
            skillTools = skillTools == null
                    ? Map.of()
                    : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(skillTools));
            offered = offered == null ? List.of() : List.copyOf(offered);
        }

        /** A request with no conversation: nothing pinned but the core tools. */
        public Request(String message, Principal principal, Integer k, Integer tokenBudget) {
            this(message, principal, k, tokenBudget, Map.of(), List.of());
        }

        public static Request of(String message, Principal principal) {
            return new Request(message, principal, null, null);
        }
    }

    /**
     * A request's context over this selector's catalog, access control and model ({@link RequestContext#of}): the
     * snapshot and the principal's allowed set taken now, the message's vectors embedded once, when first needed.
     *
     * @param conversation the conversation the request belongs to, or {@code null}
     * @param routed whether a route is decided for the message too (the selection's model call then also embeds the
     *     message as a document, for the router)
     */
    public RequestContext context(
            String message, Principal principal, dev.toolscout.conversation.Conversation conversation, boolean routed) {
        return RequestContext.of(message, principal, conversation, catalog, access, model, routed);
    }

    public Selection select(Request req) {
        return select(req, context(req.message(), req.principal(), null, false));
    }

    /**
     * Selection within {@code ctx}: its catalog snapshot and allowed set, the message's vectors embedded into it (so
     * the router and the cost step after it reuse them), and whether the ranking's lexical search of the message
     * found a rankable tool recorded in it ({@link RequestContext#wordsKnownToMatch}). The vectors are of the
     * message as searched: stripped, and cut to {@link #MAX_MESSAGE_CHARS}.
     *
     * @throws IllegalArgumentException when {@code req} and {@code ctx} are of different messages or principals
     */
    public Selection select(Request req, RequestContext ctx) {
        if (!req.principal().equals(ctx.principal())) {
            throw new IllegalArgumentException("a selection request must be of its context's principal ("
                    + ctx.principal() + "), got: " + req.principal());
        }
        if (!req.message().equals(ctx.message())) {
            throw new IllegalArgumentException("a selection request must be of its context's message, got another one ("
                    + req.message().length() + " characters, the context's "
                    + ctx.message().length() + ")");
        }
        String message = ctx.searched();
        Catalog.Snapshot snap = ctx.snapshot();
        AllowedSet allowed = ctx.allowed();
        int k = req.k() == null ? config.defaultK() : req.k();
        int visible = allowed.cardinality();

        // a skill's own tools (kind skill) are offered only through the skill: pinned when it is active, never ranked
        java.util.BitSet skillKind = snap.skillKindOrds();
        AllowedSet rankable = allowed.without(skillKind);
        List<Ranked> ranked = ranker.rank(
                message,
                ctx::rankingVectors,
                rankable,
                config.fusion().withDepth(Math.max(config.fusion().depth(), 3 * k)),
                ord -> snap.byOrd(ord).name(),
                hits -> ctx.wordsMatched(!hits.isEmpty()));
        // the message's query vector, kept for what was learned from use and the engine tools' places
        float[] queryVector = ctx.rankedQuery();
        Map<Integer, UsageMemory.Match> usedFor = Map.of();
        if (learned != null && !learned.isEmpty() && queryVector != null) {
            usedFor = learnedSimilarity(queryVector, message, nearestText(ranked), snap, rankable);
            ranked = blendLearned(ranked, usedFor, ord -> snap.byOrd(ord).name());
        }
        Map<Integer, Ranked> rankOf = new HashMap<>();
        for (Ranked r : ranked) {
            rankOf.put(r.ord(), r);
        }

        // core tools the principal may see, the discovery tool first when anything will be left out
        boolean leftOut = visible > k;
        // a request to store, forget or recall a memory gets its memory tool whatever the ranking (docs/MEMORY.md)
        String intentTool = dev.toolscout.memory.MemoryIntent.of(message).tool();
        List<CatalogEntry> core = new ArrayList<>();
        int engineOrd = -1;
        for (String name : config.coreTools()) {
            CatalogEntry e = snap.get(name);
            if (e != null) {
                if (rankable.contains(e.ord())) {
                    core.add(e);
                }
                continue;
            }
            ToolSpec own = engineTools.get(name);
            // an engine tool is no catalog entry: a negative ordinal keeps it apart from every catalog ordinal, and
            // it counts as visible only in the selections that offer it
            if (own == null || !access.allows(req.principal(), own)) {
                continue;
            }
            // ranked among the catalog's tools by meaning, so a message about remembering ranks the memory tools
            // before other core tools; with nothing left out, the discovery tools are pointless, and another engine
            // tool (memory) is offered only when it is nearer the message than every catalog tool
            Ranked r = rankEngineTool(engineOrd, own, queryVector, ranked);
            boolean discovery = own.name().source().equals(DISCOVERY_SOURCE);
            if (leftOut
                    || !discovery && r != null && r.denseRank() == 1
                    || own.fullName().equals(intentTool)) {
                CatalogEntry entry = new CatalogEntry(engineOrd--, own, "");
                if (r != null) {
                    rankOf.put(entry.ord(), r);
                }
                core.add(entry);
                visible++;
            }
        }
        Comparator<CatalogEntry> coreOrder = Comparator.<CatalogEntry>comparingInt(
                        e -> leftOut && e.name().equals(SelectorConfig.DISCOVERY_FIND) ? 0 : 1)
                .thenComparingInt(e -> e.name().equals(intentTool) ? 0 : 1)
                .thenComparing(e -> -score(rankOf.get(e.ord())))
                .thenComparingInt(e -> config.coreTools().indexOf(e.name()));
        core.sort(coreOrder);

        List<String> words = Reasons.queryWords(message);
        LinkedHashMap<Integer, SelectedTool> chosen = new LinkedHashMap<>();
        int coreSlots = Math.min(core.size(), Math.min(k, config.coreSlots(k)));
        // the discovery tool first, then the engine's tools for this request, then the active skills' tools
        int coreFrom = 0;
        if (coreSlots > 0 && leftOut && core.get(0).name().equals(SelectorConfig.DISCOVERY_FIND)) {
            chosen.put(
                    core.get(0).ord(),
                    selected(core.get(0), rankOf.get(core.get(0).ord()), true, words, Origin.CORE));
            coreFrom = 1;
        }
        for (ToolSpec t : req.offered()) {
            if (chosen.size() < k && snap.get(t.fullName()) == null && access.allows(req.principal(), t)) {
                chosen.put(engineOrd--, new SelectedTool(t, 0, "offered for this conversation", false, Origin.OFFERED));
                visible++;
            }
        }
        Pinned pinned = pin(req.skillTools(), snap, allowed, rankOf, k - chosen.size(), words);
        pinned.tools().forEach(t -> chosen.put(snap.get(t.name()).ord(), t));
        for (int i = coreFrom; i < coreSlots && chosen.size() < k; i++) {
            CatalogEntry e = core.get(i);
            chosen.putIfAbsent(e.ord(), selected(e, rankOf.get(e.ord()), true, words, Origin.CORE));
        }
        // the ranked tools fill the rest; a chosen tool's dependencies join behind it (see fill)
        Map<String, String> parentOf = new HashMap<>();
        Map<String, List<String>> usedWith =
                learned != null && config.dependencies() && !learned.isEmpty() ? learned.usedTogether() : Map.of();
        fill(ranked, snap, rankable, k, chosen, parentOf, words, usedFor, usedWith);
        // nothing more matched: the remaining core tools are the most generally useful
        for (int i = coreSlots; i < core.size() && chosen.size() < k; i++) {
            CatalogEntry e = core.get(i);
            chosen.putIfAbsent(e.ord(), selected(e, rankOf.get(e.ord()), true, words, Origin.CORE));
        }

        List<SelectedTool> list = new ArrayList<>(chosen.values());
        if (req.tokenBudget() != null) {
            list = withoutDroppedParents(fitBudget(list, req.tokenBudget()), parentOf);
        }
        // best first; ties (scores are rounded) keep the order they were chosen in, which is deterministic (ties by
        // name in the ranking) and keeps a dependency behind the tool that needs it
        list.sort(Comparator.comparingDouble((SelectedTool t) -> -t.score()));
        List<String> coreIncluded =
                list.stream().filter(SelectedTool::core).map(SelectedTool::name).toList();
        int excluded = visible - list.size();
        boolean findGiven = list.stream().anyMatch(t -> t.name().equals(SelectorConfig.DISCOVERY_FIND));
        int skillKept =
                (int) list.stream().filter(t -> t.origin() == Origin.SKILL).count();
        int otherKept =
                (int) list.stream().filter(t -> t.origin() == Origin.OFFERED).count();
        String reason = explain(list, coreIncluded, excluded, visible, findGiven, skillKept + otherKept);
        if (pinned.wanted() > 0) {
            reason += skillKept == pinned.wanted()
                    ? " The active skills' " + (skillKept == 1 ? "tool is" : skillKept + " tools are") + " pinned."
                    : " " + skillKept + " of the active skills' " + pinned.wanted() + " tools fit "
                            + (req.tokenBudget() != null
                                            && skillKept < pinned.tools().size()
                                    ? "K and the token budget"
                                    : "K")
                            + ", chosen by relevance to the message.";
        }
        return new Selection(list, coreIncluded, excluded, visible, reason, excluded > 0);
    }

    /** The active skills' tools a request pins, and how many it asked for (visible ones). */
    private record Pinned(List<SelectedTool> tools, int wanted) {}

    /**
     * The visible tools of the active skills, at most {@code room}: all of them when they fit, else the ones the
     * message ranks highest (ties by name), each reason naming its skill and saying when it was ranked.
     */
    private Pinned pin(
            Map<String, String> skillTools,
            Catalog.Snapshot snap,
            AllowedSet allowed,
            Map<Integer, Ranked> rankOf,
            int room,
            List<String> words) {
        List<CatalogEntry> wanted = new ArrayList<>();
        for (String name : skillTools.keySet()) {
            CatalogEntry e = snap.get(name);
            if (e != null && allowed.contains(e.ord())) {
                wanted.add(e);
            }
        }
        boolean ranked = wanted.size() > room;
        if (ranked) {
            wanted.sort(Comparator.comparingDouble((CatalogEntry e) -> -score(rankOf.get(e.ord())))
                    .thenComparing(CatalogEntry::name));
        }
        List<SelectedTool> out = new ArrayList<>();
        for (CatalogEntry e : wanted.subList(0, Math.max(0, Math.min(room, wanted.size())))) {
            Ranked r = rankOf.get(e.ord());
            String why = Reasons.of(e.spec(), r, false, words);
            out.add(new SelectedTool(
                    e.spec(),
                    round(score(r)),
                    "tool of active skill '" + skillTools.get(e.name()) + "'"
                            + (ranked
                                    ? " (ranked by the message: " + room + " of the skills' " + wanted.size()
                                            + " tools fit)"
                                    : "")
                            + (r == null ? "" : "; " + why),
                    false,
                    Origin.SKILL));
        }
        return new Pinned(out, wanted.size());
    }

    /**
     * Fills {@code chosen} up to {@code k} from {@code ranked}, with dependency expansion when the configuration
     * has it: a chosen tool's declared {@code depends_on} tools that exist, that the principal may see and that are
     * not chosen yet become candidates placed {@link #DEPENDENCY_GAP} below the tool that needs them (in the fused
     * score's logit), and so on down the chain: transitive, each tool chosen once however many tools need it (a
     * shared utility is brought once), a cycle ends where it meets a chosen tool. A ranked tool whose own score is
     * within the gap of the one that needs the dependency keeps its place before the dependency, so a close
     * runner-up (often the right one of near-duplicates) is never pushed down by it; a dependency that also ranks on
     * its own takes the better of the two places. Only declared dependencies: inferring credential issuers from
     * names helped one development set only (docs/FITTED_RULES.md). Unknown or denied names are skipped (never
     * revealed).
     */
    private void fill(
            List<Ranked> ranked,
            Catalog.Snapshot snap,
            AllowedSet allowed,
            int k,
            Map<Integer, SelectedTool> chosen,
            Map<String, String> parentOf,
            List<String> words,
            Map<Integer, UsageMemory.Match> usedFor,
            Map<String, List<String>> usedWith) {
        // candidates best first by their place (logit), ties by name; a ranked tool's place is its own score's
        java.util.PriorityQueue<Candidate> queue =
                new java.util.PriorityQueue<>(Comparator.comparingDouble((Candidate c) -> -c.place())
                        .thenComparing(c -> c.entry().name()));
        int next = 0;
        while (chosen.size() < k) {
            Candidate c;
            if (next < ranked.size()
                    && (queue.isEmpty()
                            || logit(ranked.get(next).score()) >= queue.peek().place())) {
                Ranked r = ranked.get(next++);
                c = new Candidate(snap.byOrd(r.ord()), r, logit(r.score()), null, false);
            } else if (!queue.isEmpty()) {
                c = queue.poll();
            } else {
                break;
            }
            if (chosen.containsKey(c.entry().ord())) {
                continue;
            }
            CatalogEntry e = c.entry();
            boolean core = coreSet.contains(e.name());
            SelectedTool t;
            if (c.neededBy() == null) {
                t = selected(e, c.ranked(), core, words, Origin.RANKED);
                UsageMemory.Match used = usedFor.get(e.ord());
                if (used != null) {
                    String usedBefore = String.format(
                            java.util.Locale.ROOT, "used before for a similar message (%.2f)", used.cosine());
                    t = t.withReason(
                            t.reason().endsWith(Reasons.NO_MATCH)
                                    ? t.reason().substring(0, t.reason().length() - Reasons.NO_MATCH.length())
                                            + usedBefore
                                    : t.reason() + "; " + usedBefore);
                }
            } else {
                String reason = (c.usedWith() ? "often used with " : "needed by ") + c.neededBy();
                t = new SelectedTool(
                        e.spec(),
                        round(1 / (1 + Math.exp(-c.place()))),
                        core ? "core tool; " + reason : reason,
                        core,
                        c.usedWith() ? Origin.USED_WITH : Origin.DEPENDENCY);
                parentOf.put(e.name(), c.neededBy());
            }
            chosen.put(e.ord(), t);
            if (!config.dependencies()) {
                continue;
            }
            for (String dep : e.spec().dependsOn()) {
                CatalogEntry d = snap.get(dep);
                if (d != null && allowed.contains(d.ord()) && !chosen.containsKey(d.ord())) {
                    queue.add(new Candidate(d, null, c.place() - DEPENDENCY_GAP, e.name(), false));
                }
            }
            // tools this deployment used together with a ranked tool follow it like a dependency (learned, not
            // declared)
            if (c.neededBy() == null) {
                for (String with : usedWith.getOrDefault(e.name(), List.of())) {
                    CatalogEntry d = snap.get(with);
                    if (d != null && allowed.contains(d.ord()) && !chosen.containsKey(d.ord())) {
                        queue.add(new Candidate(d, null, c.place() - DEPENDENCY_GAP, e.name(), true));
                    }
                }
            }
        }
    }

    /**
     * How far below the tool that needs it a dependency is placed, in the fused score's logit (the sum of the
     * standardized lexical and dense scores, weighted): about two standard deviations of a retriever's top-50
     * scores. A ranked tool that close to the one needing the dependency keeps its place before it. Chosen on
     * NesTools (docs/EVALUATION.md, "Dependencies"): 2.0 keeps the main tools' MRR of the same ranking without
     * expansion; 1.0 gains 0.4 N@10 over it and costs 0.5 points of the main tools' R@5.
     */
    static final double DEPENDENCY_GAP = 2.0;

    /**
     * How much a tool's learned match moves it, in the fused score's logit: a tool used before for this very message
     * (strength 1: cosine 1, the same content words) gains this much, and at most this much; linearly less with the
     * {@linkplain UsageMemory.Match#strength strength}. Measured with {@code eval --learn-qrels} (docs/EVALUATION.md,
     * "Learning from use").
     */
    static final double LEARNED_WEIGHT = 4.0;

    /** Each visible tool's learned match, by ordinal (tools with none are absent). */
    private Map<Integer, UsageMemory.Match> learnedSimilarity(
            float[] query, String message, double nearestTool, Catalog.Snapshot snap, AllowedSet allowed) {
        Map<Integer, UsageMemory.Match> out = new HashMap<>();
        learned.similarity(query, message, nearestTool).forEach((name, sim) -> {
            CatalogEntry e = snap.get(name);
            if (e != null && allowed.contains(e.ord())) {
                out.put(e.ord(), sim);
            }
        });
        return out;
    }

    /**
     * The cosine between the whole message's query vector and the nearest tool's text (the highest of the dense
     * search's hits ranked for the whole message), or NaN when there is none.
     */
    static double nearestText(List<Ranked> ranked) {
        double best = Double.NaN;
        for (Ranked r : ranked) {
            if (r.clause() == null && !Double.isNaN(r.similarity()) && !(r.similarity() <= best)) {
                best = r.similarity();
            }
        }
        return best;
    }

    /**
     * The ranking with each tool's learned strength times {@link #LEARNED_WEIGHT} added to its fused logit; a tool
     * the ranking lacks starts from its lowest value. Best first, ties by name (package-private for tests).
     */
    static List<Ranked> blendLearned(
            List<Ranked> ranked,
            Map<Integer, UsageMemory.Match> similarity,
            java.util.function.IntFunction<String> nameOf) {
        Map<Integer, Ranked> byOrd = new LinkedHashMap<>();
        Map<Integer, Double> value = new HashMap<>();
        double floor =
                ranked.isEmpty() ? 0 : logit(ranked.get(ranked.size() - 1).score());
        for (Ranked r : ranked) {
            byOrd.put(r.ord(), r);
            value.put(r.ord(), logit(r.score()));
        }
        similarity.forEach((ord, sim) -> {
            double gain = LEARNED_WEIGHT * sim.strength();
            if (gain <= 0) {
                return;
            }
            value.merge(ord, floor + gain, (had, ignored) -> had + gain);
            byOrd.putIfAbsent(ord, new Ranked(ord, 0, 0, 0, Double.NaN));
        });
        List<Ranked> out = new ArrayList<>(byOrd.size());
        byOrd.forEach((ord, r) -> {
            double v = value.get(ord);
            out.add(new Ranked(
                    ord, 1 / (1 + Math.exp(-v)), r.lexicalRank(), r.denseRank(), r.similarity(), r.clause()));
        });
        out.sort((x, y) -> {
            int c = Double.compare(y.score(), x.score());
            return c != 0 ? c : nameOf.apply(x.ord()).compareTo(nameOf.apply(y.ord()));
        });
        return out;
    }

    /**
     * A tool waiting for a slot: ranked ({@code ranked} set), or needed by {@code neededBy} (declared, or learned
     * from use when {@code usedWith}), at {@code place}.
     */
    private record Candidate(CatalogEntry entry, Ranked ranked, double place, String neededBy, boolean usedWith) {}

    private static double logit(double score) {
        double s = Math.min(1 - 1e-12, Math.max(1e-12, score));
        return Math.log(s / (1 - s));
    }

    /**
     * A dependency whose parent the budget dropped keeps its place, but its reason no longer names the parent: the
     * reasons reach the model's prompt, which must name only tools the model is given.
     */
    private static List<SelectedTool> withoutDroppedParents(List<SelectedTool> kept, Map<String, String> parentOf) {
        java.util.Set<String> names = new java.util.HashSet<>();
        kept.forEach(t -> names.add(t.name()));
        List<SelectedTool> out = new ArrayList<>(kept.size());
        for (SelectedTool t : kept) {
            String parent = parentOf.get(t.name());
            if (parent != null && !names.contains(parent)) {
                out.add(t.withReason((t.core() ? "core tool; " : "")
                        + (t.origin() == Origin.USED_WITH ? "often used with" : "needed by")
                        + " a tool the token budget left out"));
            } else {
                out.add(t);
            }
        }
        return out;
    }

    /**
     * Drops the lowest-scored tools until the definitions fit the budget. Keep-priority: the discovery tool, the
     * engine's tools for this request ({@link Origin#OFFERED}), the active skills' tools ({@link Origin#SKILL}) by
     * score, then the rest by score.
     */
    private List<SelectedTool> fitBudget(List<SelectedTool> list, int budget) {
        List<SelectedTool> order = new ArrayList<>(list);
        order.sort(Comparator.comparingInt((SelectedTool t) -> t.name().equals(SelectorConfig.DISCOVERY_FIND)
                        ? 0
                        : t.origin() == Origin.OFFERED ? 1 : t.origin() == Origin.SKILL ? 2 : 3)
                .thenComparingDouble(t -> -t.score())
                .thenComparing(SelectedTool::name));
        List<SelectedTool> kept = new ArrayList<>();
        int used = 0;
        for (SelectedTool t : order) {
            int cost = tokens.definitionTokens(t.spec());
            if (used + cost <= budget) {
                kept.add(t);
                used += cost;
            }
        }
        return kept;
    }

    /**
     * An engine tool's place in {@code ranked} by meaning: its cosine to the message's vector (as each ranked tool's
     * similarity), its dense rank the 1-based position among the ranked tools' similarities, and its score that of
     * the best-scored ranked tool it is nearer the message than (0 when it is nearer than none). Null without a
     * vector (a test's model) or a vector of another size.
     */
    private Ranked rankEngineTool(int ord, ToolSpec tool, float[] query, List<Ranked> ranked) {
        float[] v = engineVectors().get(tool.fullName());
        if (query == null || v == null || v.length != query.length) {
            return null;
        }
        double sim = dev.toolscout.embedding.Vectors.cosine(query, v);
        int above = 0;
        double score = 0;
        for (Ranked r : ranked) {
            if (Double.isNaN(r.similarity())) {
                continue;
            }
            if (r.similarity() > sim) {
                above++;
            } else {
                score = Math.max(score, r.score());
            }
        }
        return new Ranked(ord, score, 0, above + 1, sim);
    }

    private volatile Map<String, float[]> engineVectors;

    /** The engine tools' document vectors, embedded once (a few short texts) on first use. */
    private Map<String, float[]> engineVectors() {
        Map<String, float[]> m = engineVectors;
        if (m == null) {
            List<ToolSpec> specs = List.copyOf(engineTools.values());
            List<float[]> vs = specs.isEmpty()
                    ? List.of()
                    : model.embedDocuments(specs.stream()
                            .map(dev.toolscout.indexing.ToolText::embeddingText)
                            .toList());
            Map<String, float[]> out = new HashMap<>();
            for (int i = 0; i < specs.size(); i++) {
                out.put(specs.get(i).fullName(), vs.get(i));
            }
            m = java.util.Collections.unmodifiableMap(out);
            engineVectors = m; // racing threads embed the same texts: either map is the same value
        }
        return m;
    }

    private static double score(Ranked r) {
        return r == null ? 0 : r.score();
    }

    private static SelectedTool selected(
            CatalogEntry e, Ranked r, boolean core, List<String> queryWords, Origin origin) {
        return new SelectedTool(e.spec(), round(score(r)), Reasons.of(e.spec(), r, core, queryWords), core, origin);
    }

    private static double round(double v) {
        return Math.round(v * 10_000) / 10_000.0;
    }

    /** Names the discovery tool only when the selection carries it: a model is never told to call a tool it lacks. */
    private static String explain(
            List<SelectedTool> list,
            List<String> core,
            int excluded,
            int visible,
            boolean findGiven,
            int conversation) {
        int ranked = list.size() - core.size() - conversation;
        StringBuilder b = new StringBuilder();
        b.append("Selected ").append(list.size()).append(" of ").append(visible).append(" available tools: ");
        if (conversation > 0) {
            b.append(conversation).append(" for this conversation, ");
        }
        b.append(ranked).append(" ranked by relevance to the message");
        if (!core.isEmpty()) {
            b.append(" and ").append(core.size()).append(" pinned core tool").append(core.size() == 1 ? "" : "s");
        }
        b.append('.');
        if (excluded > 0) {
            b.append(' ').append(excluded).append(" more ").append(excluded == 1 ? "is" : "are");
            if (findGiven) {
                b.append(" available through ")
                        .append(SelectorConfig.DISCOVERY_FIND)
                        .append('.');
            } else {
                b.append(" left out.");
            }
        }
        return b.toString();
    }
}
