package dev.toolscout.routing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AllowedSet;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.catalog.CatalogEntry;
import dev.toolscout.embedding.EmbeddingModel;
import dev.toolscout.indexing.Hit;
import dev.toolscout.indexing.SearchableIndexer;
import dev.toolscout.indexing.ToolIndex;
import dev.toolscout.memory.Memories;
import dev.toolscout.memory.MemoryIndex;
import dev.toolscout.memory.MemoryIntent;
import dev.toolscout.memory.MemorySubjects;
import dev.toolscout.model.Principal;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.routing.RouteDecision.Evidence;
import dev.toolscout.routing.RouteDecision.Kind;
import dev.toolscout.selection.RequestContext;
import dev.toolscout.skills.SkillTools;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Decides a {@link Route} for a message before any LLM is called (seed 003): embeds the message once, searches the
 * memories, the tools and the skills the principal may see with that one vector, and compares the nearest
 * cosines with the model's calibrated {@link RouteThresholds}, in this order: a memory that answers it ({@link
 * Route#DIRECT_MEMORY}: a question, and a memory about its subject, see {@link #directMemory}; a request to store,
 * correct or forget a memory goes to the model, {@link MemoryIntent}), a tool with no required parameters close enough to run ({@link Route#SKILL_EXECUTE}), a
 * close tool or skill ({@link Route#SKILL_HINT}), anything relevant ({@link Route#TOOL_FILTER}), else {@link
 * Route#LLM_REQUIRED}. The registered searchable indexes ({@link #register}, a git repository's) are searched with the
 * same vector: an entry nearer than every tool and skill is the best match, hinted ({@link Route#SKILL_HINT}, target
 * the index's tool) or filtered for ({@link Route#TOOL_FILTER}) on the tools' thresholds, and never run in place of.
 *
 * <p>Access control comes first, as everywhere: the tool search runs inside the principal's allowed set, the
 * memory search inside the scopes it may read, the skill ranking over the skills it may see; the evidence names
 * nothing else.
 *
 * <p>The message is embedded as a document, as the memories, tools and skills were: the cosine is then like for
 * like (a restated fact scores near 1), where the selection's query vector (adapted, or instructed) would score
 * even an identical text lower. Thread-safe.
 */
public final class VectorRouter {
    /**
     * How far ahead of the next memory about the question's subject the answering one must be (cosine): another such
     * memory nearly as near means the question may be about either (LoCoMo: two pride parades, two camping trips), and
     * the model should choose. Chosen on LoCoMo's calibration conversations (docs/EVALUATION.md, Routes).
     */
    public static final double MEMORY_MARGIN = 0.10;

    /** How many of each kind the evidence lists. */
    public static final int EVIDENCE_PER_KIND = 3;

    private final Catalog catalog;
    private final ToolIndex index;
    private final AccessControl access;
    private final EmbeddingModel model;
    private final Memories memories;
    private final SkillTools skills;
    private final RouteThresholds thresholds;
    /** The searchable indexes registered (a git repository's), searched after the skills. */
    private final List<SearchableIndexer> indexers = new java.util.concurrent.CopyOnWriteArrayList<>();

    /**
     * @param memories the memories, or {@code null} for none
     * @param skills the skills as principals see them, or {@code null} for none
     * @param thresholds the thresholds, or {@code null} for the model's calibrated ones (all disabled when it has none)
     */
    public VectorRouter(
            Catalog catalog,
            ToolIndex index,
            AccessControl access,
            EmbeddingModel model,
            Memories memories,
            SkillTools skills,
            RouteThresholds thresholds) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
        this.index = Objects.requireNonNull(index, "index");
        this.access = Objects.requireNonNull(access, "access");
        this.model = Objects.requireNonNull(model, "model");
        this.memories = memories;
        this.skills = skills;
        this.thresholds = thresholds != null
                ? thresholds
                : RouteThresholds.forModel(model.modelId()).orElse(RouteThresholds.disabled(model.modelId()));
    }

    public RouteThresholds thresholds() {
        return thresholds;
    }

    /**
     * Fans every later route out to {@code indexer} too: its entries near the message join the evidence (for the
     * principals the policy lets use its {@link SearchableIndexer#tool() tool}), and an entry nearer than every tool
     * and skill is the route's best match ({@link #route(RequestContext, int)}).
     *
     * @throws IllegalArgumentException when an index searched by a tool of that name is registered already
     */
    public void register(SearchableIndexer indexer) {
        String tool = indexer.tool().fullName();
        synchronized (indexers) {
            if (indexers.stream().anyMatch(i -> i.tool().fullName().equals(tool))) {
                throw new IllegalArgumentException("an index searched by " + tool + " is registered already");
            }
            indexers.add(indexer);
        }
    }

    /** The indexes registered, in the order registered. */
    public List<SearchableIndexer> indexers() {
        return List.copyOf(indexers);
    }

    /**
     * Routes {@code message} for {@code principal}.
     *
     * @param k how many tools a selection holds: a catalog of at most {@code k} visible tools is sent whole when
     *     nothing clears a threshold
     * @throws IllegalArgumentException for a blank or too long message
     */
    public RouteDecision route(String message, Principal principal, int k) {
        return route(
                RequestContext.of(
                        message,
                        principal == null ? Principal.ANONYMOUS : principal,
                        null,
                        catalog,
                        access,
                        model,
                        true),
                k);
    }

    /**
     * Routes the message of {@code ctx}, within its catalog snapshot and allowed set: with the message's document
     * vector the selection's model call embedded, when it embedded the whole message (else embedded here), and
     * without searching its words again when the selection's search of the whole message found a tool ({@link
     * RequestContext#wordsKnownToMatch}).
     *
     * @param k how many tools a selection holds: a catalog of at most {@code k} visible tools is sent whole when
     *     nothing clears a threshold
     */
    public RouteDecision route(RequestContext ctx, int k) {
        RouteDecision d = decideRoute(ctx, k);
        if (d.route() == Route.DIRECT_MEMORY || d.reason().contains("a request to")) {
            return d;
        }
        List<Evidence> memEvidence =
                d.evidence().stream().filter(e -> e.kind() == Kind.MEMORY).toList();
        String note =
                notAnswered(MemoryIntent.of(ctx.message()), ctx.message(), memEvidence, thresholds.directMemory());
        return note.isEmpty()
                ? d
                : new RouteDecision(
                        d.route(),
                        d.target(),
                        d.reason() + note,
                        d.discoverySuggested(),
                        d.sendWhole(),
                        d.evidence(),
                        d.thresholds(),
                        d.wordsMatch());
    }

    private RouteDecision decideRoute(RequestContext ctx, int k) {
        String message = ctx.message();
        Principal p = ctx.principal();
        boolean wordsKnownToMatch = ctx.wordsKnownToMatch();
        float[] vector = ctx.documentVector();
        List<Evidence> evidence = new ArrayList<>();
        // memories
        List<MemoryIndex.Hit> mem = memories == null ? List.of() : memories.search(p, vector, null, EVIDENCE_PER_KIND);
        for (MemoryIndex.Hit h : mem) {
            evidence.add(new Evidence(
                    Kind.MEMORY,
                    h.memory().id(),
                    round(h.cosine()),
                    false,
                    h.memory().content()));
        }
        // tools, inside the allowed set; a skill's own tools are reached through the skill
        Catalog.Snapshot snap = ctx.snapshot();
        AllowedSet allowed = ctx.allowed();
        List<Evidence> tools = new ArrayList<>();
        if (!allowed.isEmpty()) {
            for (Hit h : index.dense(vector, allowed, EVIDENCE_PER_KIND + 5)) {
                CatalogEntry e = snap.byOrd(h.ord());
                if (e == null || e.spec().sourceKind() == SourceKind.SKILL) {
                    continue;
                }
                if (tools.size() < EVIDENCE_PER_KIND) {
                    tools.add(new Evidence(
                            Kind.TOOL,
                            e.spec().fullName(),
                            round(h.score()),
                            hasRequired(e.spec()),
                            e.spec().description()));
                }
            }
        }
        evidence.addAll(tools);
        // skills the principal may see
        Evidence skill = null;
        if (skills != null) {
            List<SkillTools.Ranked> ranked = new ArrayList<>(skills.rank(p, message, () -> vector));
            ranked.sort(java.util.Comparator.comparingDouble(
                            (SkillTools.Ranked r) -> -r.match().similarity())
                    .thenComparing(r -> r.skill().name()));
            for (SkillTools.Ranked r : ranked.subList(0, Math.min(EVIDENCE_PER_KIND, ranked.size()))) {
                Evidence e = new Evidence(
                        Kind.SKILL,
                        r.skill().name(),
                        round(r.match().similarity()),
                        false,
                        skills.readable(p, r.skill()).description());
                evidence.add(e);
                skill = skill == null ? e : skill;
            }
        }
        // the registered indexes whose tool the principal may use (a denied one is as if none were registered)
        Evidence indexed = null;
        for (SearchableIndexer ix : indexers) {
            if (!access.allows(p, ix.tool())) {
                continue;
            }
            for (SearchableIndexer.Near n : ix.nearest(vector, EVIDENCE_PER_KIND)) {
                Evidence e = new Evidence(
                        Kind.INDEX,
                        n.name(),
                        round(n.cosine()),
                        false,
                        n.text(),
                        ix.tool().fullName());
                evidence.add(e);
                indexed = indexed == null || e.cosine() > indexed.cosine() ? e : indexed;
            }
        }
        RouteThresholds t = thresholds;
        MemoryIntent intent = MemoryIntent.of(message);
        List<Evidence> memEvidence =
                evidence.stream().filter(e -> e.kind() == Kind.MEMORY).toList();
        Evidence answer = directMemory(intent, message, memEvidence, t.directMemory());
        if (answer != null) {
            return decide(
                    Route.DIRECT_MEMORY,
                    answer.name(),
                    "memory " + answer.name() + " answers it (" + clearedText(answer.cosine(), t.directMemory())
                            + ", and it is about what the question asks)",
                    false,
                    false,
                    evidence,
                    words(message, allowed, wordsKnownToMatch));
        }
        if (intent.tool() != null && !intent.answerable()) {
            // a request to store, correct or forget: the model does it with the memory tool (the selection offers it),
            // never a tool run or a memory answer in its place
            return decide(
                    Route.TOOL_FILTER,
                    null,
                    "a request to " + intent.name().toLowerCase(Locale.ROOT) + " a memory: the model does it with "
                            + intent.tool() + notAnswered(intent, message, memEvidence, t.directMemory()),
                    false,
                    false,
                    evidence,
                    words(message, allowed, wordsKnownToMatch));
        }
        Evidence top = tools.isEmpty() ? null : tools.get(0);
        // an index entry nearer than every tool and skill is the best match (seed 003: best hit wins): no tool runs
        // in its place, and the hint and the filter name the index's tool
        if (indexed != null
                && (top != null && indexed.cosine() <= top.cosine()
                        || skill != null && indexed.cosine() <= skill.cosine())) {
            indexed = null;
        }
        if (indexed == null
                && top != null
                && !top.requiredParameters()
                && RouteThresholds.clears(top.cosine(), t.skillExecute())) {
            return decide(
                    Route.SKILL_EXECUTE,
                    top.name(),
                    top.name() + " needs no parameters and matches closely ("
                            + clearedText(top.cosine(), t.skillExecute()) + "): it can run without the LLM",
                    false,
                    false,
                    evidence,
                    words(message, allowed, wordsKnownToMatch));
        }
        Evidence hint = top;
        if (skill != null && (hint == null || skill.cosine() > hint.cosine())) {
            hint = skill;
        }
        hint = indexed != null ? indexed : hint;
        if (hint != null && RouteThresholds.clears(hint.cosine(), t.skillHint())) {
            String what = hint.kind() == Kind.SKILL
                    ? "skill " + hint.name() + " (activate it)"
                    : hint.kind() == Kind.INDEX ? indexedText(hint) : hint.name();
            return decide(
                    Route.SKILL_HINT,
                    hint.kind() == Kind.INDEX ? hint.via() : hint.name(),
                    what + " matches closely (" + clearedText(hint.cosine(), t.skillHint()) + ")",
                    false,
                    false,
                    evidence,
                    words(message, allowed, wordsKnownToMatch));
        }
        // a word of the message that matches a visible tool (BM25, stop words left out) keeps the tools: meaning alone
        // misses "Send an email to Bob about the budget" (cosine 0.22 with MiniLM), words alone miss nothing gibberish
        boolean words = words(message, allowed, wordsKnownToMatch);
        if (indexed != null && RouteThresholds.clears(indexed.cosine(), t.toolFilter())) {
            return decide(
                    Route.TOOL_FILTER,
                    null,
                    "the nearest match is " + indexedText(indexed) + " ("
                            + clearedText(indexed.cosine(), t.toolFilter()) + ")",
                    false,
                    false,
                    evidence,
                    words);
        }
        if (top != null && RouteThresholds.clears(top.cosine(), t.toolFilter())) {
            return decide(
                    Route.TOOL_FILTER,
                    null,
                    "tools are relevant (nearest " + top.name() + ", " + clearedText(top.cosine(), t.toolFilter())
                            + ")",
                    false,
                    false,
                    evidence,
                    words);
        }
        if (Double.isNaN(t.toolFilter())) {
            return decide(
                    Route.TOOL_FILTER,
                    null,
                    "no route thresholds are calibrated for model " + t.modelId()
                            + ", so the tools are selected as usual",
                    false,
                    false,
                    evidence,
                    words);
        }
        if (top != null && words) {
            return decide(
                    Route.TOOL_FILTER,
                    null,
                    "words of the message match tools (the nearest by meaning, " + top.name() + ", has cosine "
                            + fmt(top.cosine()) + ", under " + th(t.toolFilter()) + ")",
                    false,
                    false,
                    evidence,
                    true);
        }
        int visible = allowed.cardinality();
        boolean whole = visible > 0 && visible <= k;
        String nearest = top == null
                ? "no tool is visible"
                : "no word matches a tool, and the nearest by meaning, " + top.name() + ", has cosine "
                        + fmt(top.cosine()) + ", under the " + th(t.toolFilter()) + " needed";
        return decide(
                Route.LLM_REQUIRED,
                null,
                "nothing in the catalog matches (" + nearest + "); "
                        + (whole
                                ? "the catalog is small enough to send whole (" + visible + " tools)"
                                : "search with tool_discovery__find instead of trusting weak matches"),
                true,
                whole,
                evidence,
                false);
    }

    /**
     * The memory that answers {@code message} directly, or {@code null}: the message is a question ({@link
     * MemoryIntent#answerable()}) that asks for what was stored, not for a guess ({@link MemorySubjects#asksForGuess}),
     * and the nearest memory about what it asks ({@link MemorySubjects#mismatch}) clears {@code threshold} and leads
     * every other such memory by {@link #MEMORY_MARGIN} (a memory about another subject is no rival: it cannot be the
     * answer). Shared with the route calibration, so what it measures is what the router does.
     *
     * @param memories the memory evidence, nearest first
     */
    public static Evidence directMemory(
            MemoryIntent intent, String message, List<Evidence> memories, double threshold) {
        if (!intent.answerable() || MemorySubjects.asksForGuess(message)) {
            return null;
        }
        Evidence answer = null;
        for (Evidence e : memories) {
            if (answer == null && !RouteThresholds.clears(e.cosine(), threshold)) {
                return null;
            }
            if (MemorySubjects.mismatch(message, e.text()).isEmpty()) {
                if (answer != null) {
                    // cosines are rounded to four decimals: 0.8512 - 0.7512 is a lead of 0.10
                    return answer.cosine() - e.cosine() >= MEMORY_MARGIN - 1e-9 ? answer : null;
                }
                answer = e;
            }
        }
        return answer;
    }

    /** Why the nearest memory, which clears the threshold, does not answer: for the route's reason; or "". */
    private static String notAnswered(MemoryIntent intent, String message, List<Evidence> memories, double threshold) {
        if (memories.isEmpty() || !RouteThresholds.clears(memories.get(0).cosine(), threshold)) {
            return "";
        }
        Evidence e = memories.get(0);
        if (!intent.answerable()) {
            return " (memory " + e.name() + " is near, cosine " + fmt(e.cosine())
                    + ", but the message is not a question)";
        }
        String near = " (memory " + e.name() + " is near, cosine " + fmt(e.cosine()) + ", but ";
        if (MemorySubjects.asksForGuess(message)) {
            return near + "the question asks for a guess, which no stored fact states)";
        }
        java.util.Optional<String> why = MemorySubjects.mismatch(message, e.text());
        if (why.isPresent()) {
            return near + why.get() + ")";
        }
        for (Evidence other : memories.subList(1, memories.size())) {
            if (MemorySubjects.mismatch(message, other.text()).isEmpty()) {
                return near + "memory " + other.name() + ", cosine " + fmt(other.cosine())
                        + ", is as much about it: less than " + th(MEMORY_MARGIN) + " behind)";
            }
        }
        return "";
    }

    private RouteDecision decide(
            Route r,
            String target,
            String reason,
            boolean discovery,
            boolean whole,
            List<Evidence> evidence,
            boolean words) {
        return new RouteDecision(r, target, reason, discovery, whole, evidence, thresholds, words);
    }

    /**
     * Whether a word of the message matches a tool inside {@code allowed} (BM25 finds one); {@code known}: a search
     * inside a subset of {@code allowed} found one already.
     */
    private boolean words(String message, AllowedSet allowed, boolean known) {
        return known
                || !allowed.isEmpty() && !index.lexical(message, allowed, 1).isEmpty();
    }

    /** An index entry for a reason: {@code '1a2b3c4d Fix the invoice dates' in the index git__search searches}. */
    private static String indexedText(Evidence e) {
        return "'" + e.name() + "' in the index " + e.via() + " searches";
    }

    private static String clearedText(double cosine, double threshold) {
        return "cosine " + fmt(cosine) + " >= " + th(threshold);
    }

    private static String fmt(double d) {
        return String.format(Locale.ROOT, "%.4f", d);
    }

    private static String th(double d) {
        return String.format(Locale.ROOT, "%.2f", d);
    }

    private static double round(double d) {
        return Math.round(d * 10_000) / 10_000.0;
    }

    /**
     * Whether a tool needs arguments: its input schema lists a required parameter, or asks for one of several
     * ({@code anyOf} or {@code oneOf} at the top, as {@code memory__recall} does).
     */
    public static boolean hasRequired(ToolSpec spec) {
        JsonNode p = spec.parameters();
        if (p == null) {
            return false;
        }
        JsonNode req = p.get("required");
        return req != null && req.isArray() && !req.isEmpty() || p.has("anyOf") || p.has("oneOf");
    }
}
